//! The strict reader in front of the scenario's serde types (docs/SCENARIO.md, "Reading").
//!
//! One streaming pass over the text, with no tree built, checks what serde's derived types
//! cannot see or would silently accept, and names where it happened:
//! - a key repeated in one object (serde_json's `Value` keeps the last; which was meant?);
//! - an array where an object with named fields belongs (serde would fill a struct by
//!   position) or a list element that is not an object;
//! - nesting deeper than [`MAX_DEPTH`] (the scenario is 5 levels deep);
//! - numbers out of range and syntax errors, with the path of the value being read.
//!
//! It also records each job's id, so that a later error inside `jobs[i]` names the job.
//! Memory is the keys of one object at a time plus the ids: the typed pass that follows
//! reads the text again straight into the scenario's structs.

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

/// Deepest nesting accepted (objects and arrays); the scenario itself needs 5.
pub const MAX_DEPTH: usize = 32;

/// Fields that are lists of objects.
const LISTS: [&str; 3] = ["jobs", "layers", "machines"];
/// Fields that are objects with named fields (serde would also read them from an array).
/// `capacity` is a machine group's (version 2): read by position it would swap resources.
const STRUCTS: [&str; 8] = [
    "cluster", "params", "unit", "instance", "worker", "ps", "utility", "capacity",
];

/// Where the first problem was found, and what it is.
#[derive(Debug)]
pub(crate) struct Problem {
    /// `jobs[3].worker.gpu`-style path of the value; empty for the whole text.
    pub path: String,
    /// What is wrong.
    pub message: String,
    /// Whether the text is still valid JSON after it (a repeated key, an array for an
    /// object): the walk goes on, and a later syntax error replaces it — text that is not
    /// JSON is reported as such first.
    pub shape_only: bool,
    /// Whether the text ended inside the value (a truncated file).
    pub truncated: bool,
}

/// What the pass learnt: each job's id (where it was a string) and the first problem.
#[derive(Default)]
pub(crate) struct Scan {
    /// `ids[i]`: the `id` of `jobs[i]` if it is a string seen so far.
    pub ids: Vec<Option<String>>,
    /// The first problem, if any.
    pub problem: Option<Problem>,
}

/// Scans `text`; `scan.problem` is `None` when the text is well-formed for the typed pass.
pub(crate) fn scan(text: &str) -> Scan {
    let state = RefCell::new(Scan::default());
    let mut de = serde_json::Deserializer::from_str(text);
    let root = Walk {
        state: &state,
        path: Path::Root,
        depth: 0,
    };
    let result = root.deserialize(&mut de).and_then(|()| de.end());
    let mut scan = state.into_inner();
    if let Err(e) = result {
        if scan.problem.as_ref().is_none_or(|p| p.shape_only) {
            scan.problem = Some(Problem {
                path: String::new(),
                message: describe(&e.to_string()),
                shape_only: false,
                truncated: false,
            });
        }
        // The parser's own error comes out here whatever the depth it was raised at.
        if let Some(p) = scan.problem.as_mut() {
            p.truncated = e.classify() == serde_json::error::Category::Eof;
        }
    }
    scan
}

/// serde_json's message with its "at line L column C" moved into parentheses.
pub(crate) fn describe(text: &str) -> String {
    match text.rsplit_once(" at line ") {
        Some((core, pos)) if pos.contains(" column ") => {
            format!("{core} (line {})", pos.replacen(" column ", ", column ", 1))
        }
        _ => text.to_owned(),
    }
}

/// A path as a linked list on the stack: no allocation per value.
#[derive(Clone, Copy)]
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(Path::Root, k) => write!(f, "{}", Key(k)),
            Path::Key(parent, k) => write!(f, "{parent}.{}", Key(k)),
            Path::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

/// A key as a path shows it: plain when it is a name, quoted otherwise (blank, dots, …).
struct Key<'a>(&'a str);

impl fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plain = !self.0.is_empty()
            && self
                .0
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
        if plain {
            f.write_str(self.0)
        } else {
            write!(f, "{:?}", self.0)
        }
    }
}

impl Path<'_> {
    /// The last key, if the path ends in one.
    fn key(&self) -> Option<&str> {
        match self {
            Path::Key(_, k) => Some(k),
            _ => None,
        }
    }
    /// `Some(i)` if this is `jobs[i]` itself.
    fn job_index(&self) -> Option<usize> {
        match self {
            Path::Index(Path::Key(Path::Root, "jobs"), i) => Some(*i),
            _ => None,
        }
    }
    /// Whether this is `jobs[i].id`.
    fn job_id_of(&self) -> Option<usize> {
        match self {
            Path::Key(parent, "id") => parent.job_index(),
            _ => None,
        }
    }
    /// Whether this is a list element (`jobs[i]`, `jobs[i].layers[j]`).
    fn in_list(&self) -> bool {
        match self {
            Path::Index(parent, _) => parent.key().is_some_and(|k| LISTS.contains(&k)),
            _ => false,
        }
    }
    /// Whether this value must be an object with named fields.
    fn wants_object(&self) -> bool {
        matches!(self, Path::Root)
            || self.in_list()
            || self.key().is_some_and(|k| STRUCTS.contains(&k))
    }
}

#[derive(Clone, Copy)]
struct Walk<'s, 'p> {
    state: &'s RefCell<Scan>,
    path: Path<'p>,
    depth: usize,
}

impl<'s, 'p> Walk<'s, 'p> {
    /// The walker of a value one level down, at `path`.
    fn child<'q>(&self, path: Path<'q>) -> Walk<'s, 'q> {
        Walk {
            state: self.state,
            path,
            depth: self.depth + 1,
        }
    }

    /// The depth limit, checked where an array or object opens.
    fn too_deep<E: de::Error>(&self) -> Result<(), E> {
        if self.depth >= MAX_DEPTH {
            return Err(self.fail(format!(
                "nests arrays and objects deeper than {MAX_DEPTH} levels"
            )));
        }
        Ok(())
    }

    /// Records `message` at this path unless a problem is recorded already (a syntax error
    /// replaces a shape-only one).
    fn record(&self, message: String, shape_only: bool) {
        let mut st = self.state.borrow_mut();
        let replace = match &st.problem {
            None => true,
            Some(p) => p.shape_only && !shape_only,
        };
        if replace {
            st.problem = Some(Problem {
                path: self.path.to_string(),
                message,
                shape_only,
                truncated: false,
            });
        }
    }

    /// Records a problem that stops the walk and returns the error that stops it.
    fn fail<E: de::Error>(&self, message: String) -> E {
        self.record(message, false);
        E::custom("stopped: the problem is recorded in the scan")
    }

    /// A parser error raised while reading the value at this path.
    fn parser_error<E: de::Error + fmt::Display>(&self, e: E) -> E {
        let stopped = self
            .state
            .borrow()
            .problem
            .as_ref()
            .is_some_and(|p| !p.shape_only);
        if !stopped {
            self.record(
                format!("cannot be read: {}", describe(&e.to_string())),
                false,
            );
        }
        // The parser's own error travels on, so `scan` can tell a truncated text.
        e
    }

    /// A value that is not an object where one belongs: recorded, and the walk goes on.
    fn not_object(&self, got: &str) {
        if self.path.wants_object() {
            let what = if matches!(self.path, Path::Root) {
                "a scenario must be a JSON object with named fields"
            } else {
                "must be a JSON object with named fields"
            };
            // At the root nothing further can be named: that problem is final.
            let shape_only = !matches!(self.path, Path::Root);
            self.record(format!("{what} (got {got})"), shape_only);
        }
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.not_object("a boolean");
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.not_object("a number");
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.not_object("a number");
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.not_object("a number");
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.not_object("null");
        Ok(())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        if let Some(i) = self.path.job_id_of() {
            let mut st = self.state.borrow_mut();
            if st.ids.len() <= i {
                st.ids.resize(i + 1, None);
            }
            st.ids[i] = Some(v.to_owned());
        }
        self.not_object("a string");
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.not_object("an array");
        if matches!(self.path, Path::Root) {
            // Not a scenario at all: nothing inside it can be named.
            return Err(de::Error::custom("stopped: not a scenario"));
        }
        self.too_deep()?;
        let mut i = 0;
        loop {
            let child = self.child(Path::Index(&self.path, i));
            match seq.next_element_seed(child) {
                Ok(Some(())) => {}
                Ok(None) => break,
                Err(e) => return Err(child.parser_error(e)),
            }
            i += 1;
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.too_deep()?;
        let mut seen: HashSet<String> = HashSet::new();
        loop {
            let key = match map.next_key::<String>() {
                Ok(Some(k)) => k,
                Ok(None) => break,
                Err(e) => return Err(self.parser_error(e)),
            };
            let child = self.child(Path::Key(&self.path, &key));
            if seen.contains(&key) {
                child.record(
                    "appears twice in the same object (a repeated key is not allowed: which value was meant?)"
                        .into(),
                    true,
                );
            }
            if let Err(e) = map.next_value_seed(child) {
                return Err(child.parser_error(e));
            }
            seen.insert(key);
        }
        Ok(())
    }
}
