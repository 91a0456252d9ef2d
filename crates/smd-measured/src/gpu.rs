//! The GPU types the applications were measured on (docs/MODEL.md §24): the Pollux
//! artifact's T4 nodes and the Sia artifact's V100, A100, RTX 2080 Ti and Quadro RTX 6000
//! nodes (`data/sia/README.md`). A type is the GPU and the node it was measured in: its
//! step times hold for that node's GPUs per node and interconnect.

/// A measured GPU type.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Gpu {
    /// NVIDIA T4 16 GB, 4 per node (AWS g4dn.12xlarge, 50 Gb/s): the Pollux artifact's
    /// node, the Sia artifact's `aws`.
    #[default]
    T4,
    /// NVIDIA V100 32 GB, 8 per node (Azure ND40rs_v2): the Sia artifact's `azure`.
    V100,
    /// NVIDIA A100 40 GB, 8 per node (DGX-A100, 1.6 Tb/s InfiniBand): the Sia artifact's
    /// `dgx-ext`.
    A100,
    /// NVIDIA GeForce RTX 2080 Ti 11 GB, 8 per node (50 Gb/s Ethernet): the Sia artifact's
    /// `rtx`.
    Rtx2080ti,
    /// NVIDIA Quadro RTX 6000 24 GB, 4 in one workstation (200 Gb/s InfiniBand): the Sia
    /// artifact's `quad`.
    Rtx6000,
}

impl Gpu {
    /// Every type, in the order tables and charts list them.
    pub const ALL: [Gpu; 5] = [Gpu::T4, Gpu::V100, Gpu::A100, Gpu::Rtx2080ti, Gpu::Rtx6000];

    /// Its position in [`Gpu::ALL`] (what per-type arrays are indexed by).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name in files and on the command line: `t4`, `v100`, `a100`, `rtx2080ti`,
    /// `rtx6000` (serde's).
    pub fn name(self) -> &'static str {
        match self {
            Gpu::T4 => "t4",
            Gpu::V100 => "v100",
            Gpu::A100 => "a100",
            Gpu::Rtx2080ti => "rtx2080ti",
            Gpu::Rtx6000 => "rtx6000",
        }
    }

    /// Its name for people: `T4`, `V100`, `A100`, `RTX 2080 Ti`, `RTX 6000`.
    pub fn label(self) -> &'static str {
        match self {
            Gpu::T4 => "T4",
            Gpu::V100 => "V100",
            Gpu::A100 => "A100",
            Gpu::Rtx2080ti => "RTX 2080 Ti",
            Gpu::Rtx6000 => "RTX 6000",
        }
    }

    /// The type named `name` (case and surrounding space ignored), or a message listing
    /// the types.
    pub fn parse(name: &str) -> Result<Gpu, String> {
        let n = name.trim().to_ascii_lowercase();
        Gpu::ALL.into_iter().find(|g| g.name() == n).ok_or_else(|| {
            let names: Vec<&str> = Gpu::ALL.iter().map(|g| g.name()).collect();
            let shown: String = name.chars().take(40).collect();
            format!("unknown GPU type {shown:?} (expected {})", names.join(", "))
        })
    }

    /// Its key in the Sia artifact's files (`placements-<key>.csv`).
    pub fn artifact_key(self) -> &'static str {
        match self {
            Gpu::T4 => "aws",
            Gpu::V100 => "azure",
            Gpu::A100 => "dgx-ext",
            Gpu::Rtx2080ti => "rtx",
            Gpu::Rtx6000 => "quad",
        }
    }

    /// GPUs per node of the measured node.
    pub fn per_node(self) -> u32 {
        match self {
            Gpu::T4 | Gpu::Rtx6000 => 4,
            Gpu::V100 | Gpu::A100 | Gpu::Rtx2080ti => 8,
        }
    }

    /// The most nodes the measurements cover (the artifact's profiled physical nodes).
    pub fn measured_nodes(self) -> u32 {
        match self {
            Gpu::T4 => 16,
            Gpu::V100 => 5,
            Gpu::A100 => 2,
            Gpu::Rtx2080ti => 3,
            Gpu::Rtx6000 => 1,
        }
    }

    /// The tie-break of the heterogeneity-unaware policy's type fix (the Sia artifact's
    /// "a100 > quad > rtx > t4"; lower first).
    pub fn preference(self) -> u32 {
        match self {
            Gpu::A100 => 0,
            Gpu::V100 => 1,
            Gpu::Rtx6000 => 2,
            Gpu::Rtx2080ti => 3,
            Gpu::T4 => 4,
        }
    }
}

impl std::fmt::Display for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Gpu {
    type Err = String;
    fn from_str(s: &str) -> Result<Gpu, String> {
        Gpu::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_serdes_and_parse_back() {
        for g in Gpu::ALL {
            assert_eq!(
                serde_json::to_string(&g).unwrap(),
                format!("\"{}\"", g.name())
            );
            assert_eq!(Gpu::parse(&format!(" {} ", g.name().to_uppercase())), Ok(g));
            assert_eq!(Gpu::ALL[g.index()], g);
        }
        assert!(Gpu::parse("h100").unwrap_err().contains("t4, v100, a100"));
    }
}
