//! A cluster of GPU types and the configurations a job may take on it (MODEL.md §24.1, §4.2;
//! docs/MODEL.md §24).

use smd_measured::gpu::Gpu;

/// Nodes of each GPU type, in the cluster's order (which fixes the order of
/// configurations, the projection source and the greedy fills' order).
#[derive(Clone, Debug, PartialEq)]
pub struct Cluster {
    /// (type, nodes), each type once, nodes ≥ 1.
    pub types: Vec<(Gpu, u32)>,
}

/// One configuration: a number of whole or partial nodes of one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Index of its type in [`Cluster::types`].
    pub kind: usize,
    /// Nodes it spans.
    pub nodes: u32,
    /// GPUs it takes.
    pub gpus: u32,
}

impl Config {
    /// Its placement: GPUs per node, `(k,)` within a node or whole nodes.
    pub fn placement(&self) -> Vec<u32> {
        if self.nodes <= 1 {
            vec![self.gpus]
        } else {
            vec![self.gpus / self.nodes; self.nodes as usize]
        }
    }
}

impl Cluster {
    /// The cluster of `groups` (type, nodes): groups of one type merged, types with no
    /// node dropped, in the order of first appearance. Errors when no GPU is left.
    pub fn of(groups: &[(Gpu, u32)]) -> Result<Cluster, String> {
        let mut types: Vec<(Gpu, u32)> = Vec::new();
        for &(g, n) in groups.iter().filter(|(_, n)| *n > 0) {
            match types.iter_mut().find(|(t, _)| *t == g) {
                Some(t) => t.1 = t.1.saturating_add(n),
                None => types.push((g, n)),
            }
        }
        if types.is_empty() {
            return Err("the cluster has no GPU machine".into());
        }
        Ok(Cluster { types })
    }

    /// The GPUs of type index `k`.
    pub fn gpus(&self, k: usize) -> u32 {
        let (g, n) = self.types[k];
        n.saturating_mul(g.per_node())
    }

    /// Every type's GPUs.
    pub fn total_gpus(&self) -> u64 {
        (0..self.types.len()).map(|k| u64::from(self.gpus(k))).sum()
    }

    /// Sia's configurations (MODEL.md §24.3), in cluster order: on 4-GPU nodes (1,1),
    /// (1,2), (1,4), then (n, 4n); on 8-GPU nodes (1,1), (1,2), (1,4), (1,8), then
    /// (n, 8n); at most as many nodes as the type has and as were measured.
    pub fn configs(&self) -> Vec<Config> {
        let mut out = Vec::new();
        for (kind, &(g, n)) in self.types.iter().enumerate() {
            let per = g.per_node();
            let most = n.min(g.measured_nodes());
            let mut within = vec![1, 2, 4];
            if per == 8 {
                within.push(8);
            }
            for gpus in within.into_iter().filter(|&k| k <= per) {
                out.push(Config {
                    kind,
                    nodes: 1,
                    gpus,
                });
            }
            for nodes in 2..=most {
                out.push(Config {
                    kind,
                    nodes,
                    gpus: nodes * per,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// the Sia artifact's values, MODEL.md §24: 19 configurations on the default cluster, 14 on the testbed.
    #[test]
    fn configurations_of_the_reference_clusters() {
        let c = Cluster::of(&[(Gpu::T4, 6), (Gpu::A100, 2), (Gpu::Rtx2080ti, 3)]).unwrap();
        let all = c.configs();
        assert_eq!(all.len(), 19);
        let shown: Vec<(usize, u32, u32)> = all.iter().map(|c| (c.kind, c.nodes, c.gpus)).collect();
        assert_eq!(
            &shown[..8],
            &[
                (0, 1, 1),
                (0, 1, 2),
                (0, 1, 4),
                (0, 2, 8),
                (0, 3, 12),
                (0, 4, 16),
                (0, 5, 20),
                (0, 6, 24)
            ]
        );
        assert_eq!(shown[8], (1, 1, 1));
        assert_eq!(shown[12], (1, 2, 16));
        assert_eq!(shown[18], (2, 3, 24));
        let phoebe =
            Cluster::of(&[(Gpu::Rtx2080ti, 3), (Gpu::A100, 2), (Gpu::Rtx6000, 1)]).unwrap();
        assert_eq!(phoebe.configs().len(), 14);
        assert_eq!(Cluster::of(&[(Gpu::T4, 16)]).unwrap().configs().len(), 18);
        assert!(Cluster::of(&[(Gpu::T4, 0)]).is_err());
        assert_eq!(all[12].placement(), vec![8, 8]);
    }
}
