//! The one reader of every `FILE|-` argument: at most [`MAX_INPUT_BYTES`], streamed, with
//! the line of the first byte that is not text named.

use crate::failure::Failure;
use std::io::{self, Read};
use std::path::Path;

/// The input's display name and its text; `-` is stdin.
pub(crate) fn read_input(file: &Path) -> Result<(String, String), Failure> {
    read_named(file, "scenario file")
}

/// The most any command reads from one `FILE|-` (1 GiB): the largest scenario any command
/// can plan is far smaller, and a larger input (or `/dev/zero`) fails at once instead of
/// costing its size in memory first.
pub(crate) const MAX_INPUT_BYTES: u64 = 1 << 30;

/// Reads `file` (or stdin for `-`), a `what` (e.g. "trace file"): its name for messages and
/// its text. The one reader of every `FILE|-` argument: capped at [`MAX_INPUT_BYTES`].
pub(crate) fn read_named(file: &Path, what: &str) -> Result<(String, String), Failure> {
    if file.as_os_str() == "-" {
        let name = "stdin".to_owned();
        let text = read_text(io::stdin().lock(), MAX_INPUT_BYTES, 0)
            .map_err(|e| Failure::Invalid(format!("cannot read the {what} from stdin: {e}")))?;
        Ok((name, text))
    } else {
        let name = format!("{what} \"{}\"", file.display());
        let failed = |e: String| Failure::Invalid(format!("cannot read {name}: {e}"));
        let f = std::fs::File::open(file).map_err(|e| failed(e.to_string()))?;
        // A regular file says its size: refuse it before reading a byte, else read it into
        // a buffer of that size (no doubling on the way).
        let size = match f.metadata() {
            Ok(m) if m.is_file() => m.len(),
            _ => 0,
        };
        if size > MAX_INPUT_BYTES {
            return Err(failed(too_large(MAX_INPUT_BYTES)));
        }
        let text = read_text(f, MAX_INPUT_BYTES, size as usize).map_err(failed)?;
        Ok((name, text))
    }
}

pub(crate) fn too_large(limit: u64) -> String {
    let size = if limit % (1 << 30) == 0 {
        format!("{} GiB", limit >> 30)
    } else {
        format!("{limit} bytes")
    };
    format!("it is larger than {size}, the most a command reads")
}

/// Reads `r` as UTF-8 text of at most `limit` bytes, in chunks: a NUL byte, bytes that are
/// not UTF-8 (with their line) or more than `limit` bytes stop it where they are found, so
/// binary input costs no more memory than the text read before it. `expected`: the size
/// to make room for at once (0 if unknown).
pub(crate) fn read_text(r: impl Read, limit: u64, expected: usize) -> Result<String, String> {
    let mut r = r.take(limit + 1);
    let mut buf: Vec<u8> = Vec::with_capacity(expected);
    let mut chunk = vec![0u8; 64 * 1024];
    // `checked`: how much of `buf` is known to be UTF-8 (a sequence cut by a chunk's end
    // is checked with the next chunk).
    let mut checked = 0;
    loop {
        let n = match r.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.to_string()),
        };
        if buf.len() as u64 + n as u64 > limit {
            return Err(too_large(limit));
        }
        let line = |buf: &[u8], at: usize| buf[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        if let Some(i) = chunk[..n].iter().position(|&b| b == 0) {
            buf.extend_from_slice(&chunk[..i]);
            let at = buf.len();
            return Err(format!(
                "line {}: a NUL byte (at byte {}): not a text file",
                line(&buf, at),
                at + 1
            ));
        }
        buf.extend_from_slice(&chunk[..n]);
        match std::str::from_utf8(&buf[checked..]) {
            Ok(_) => checked = buf.len(),
            Err(e) if e.error_len().is_none() => checked += e.valid_up_to(),
            Err(e) => {
                let at = checked + e.valid_up_to();
                return Err(format!(
                    "line {}: bytes that are not UTF-8 (at byte {})",
                    line(&buf, at),
                    at + 1
                ));
            }
        }
    }
    String::from_utf8(buf).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!(
            "line {line}: the text ends inside a UTF-8 character (at byte {})",
            at + 1
        )
    })
}

// ---------------------------------------------------------------------------------------
// Tables

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_stops_past_the_limit_without_reading_on() {
        // An endless input of spaces: refused once past the limit, having read only it.
        let e = read_text(io::repeat(b' '), 1000, 0).unwrap_err();
        assert_eq!(e, "it is larger than 1000 bytes, the most a command reads");
        assert!(too_large(MAX_INPUT_BYTES).contains("1 GiB"));
        // Exactly the limit is fine.
        assert_eq!(read_text(&b"abc"[..], 3, 0).unwrap(), "abc");
        assert!(read_text(&b"abcd"[..], 3, 0).is_err());
    }

    #[test]
    fn binary_input_names_its_line_and_a_character_split_across_chunks_is_fine() {
        // A NUL from an endless source stops at once.
        let e = read_text(io::repeat(0), MAX_INPUT_BYTES, 0).unwrap_err();
        assert_eq!(e, "line 1: a NUL byte (at byte 1): not a text file");
        let e = read_text(&b"a\nb\n\xff"[..], 100, 0).unwrap_err();
        assert_eq!(e, "line 3: bytes that are not UTF-8 (at byte 5)");
        let e = read_text(&b"a\n\xc3"[..], 100, 0).unwrap_err();
        assert!(
            e.starts_with("line 2: the text ends inside a UTF-8 character"),
            "{e}"
        );
        // "é" split by the 64 KiB chunk boundary reads whole.
        let mut text = "x".repeat(64 * 1024 - 1);
        text.push_str("é\n");
        assert_eq!(
            read_text(text.as_bytes(), MAX_INPUT_BYTES, 0).unwrap(),
            text
        );
    }
}
