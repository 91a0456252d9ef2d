//! The six applications of the Pollux artifact (`data/pollux/README.md`): the facts the
//! presets are built from. Numbers here are the artifact's measurements; tests check each
//! against the bundled files (`tests/data.rs`), so the two cannot drift apart.

use serde::Deserialize;
use std::sync::OnceLock;

/// One of the measured applications.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum App {
    /// ResNet-18 on CIFAR-10.
    Cifar10,
    /// ResNet-50 on ImageNet.
    Imagenet,
    /// BERT-base fine-tuned on SQuAD.
    Bert,
    /// DeepSpeech2.
    Deepspeech2,
    /// YOLOv3 on PASCAL VOC.
    Yolov3,
    /// NeuMF on MovieLens-1M.
    Ncf,
}

/// What the artifact measured about an application.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Facts {
    /// The application.
    pub app: App,
    /// The model, in words.
    pub model: &'static str,
    /// Parameters (the sum of `param_counts.json`'s groups).
    pub parameters: u64,
    /// Epochs of the training run.
    pub epochs: u32,
    /// The global batch the artifact starts from (its smallest measured K).
    pub initial_batch: u32,
    /// The largest global batch the artifact allows (its largest measured K).
    pub max_batch: u32,
    /// Least-squares fit of the single-GPU step time over the local batch b:
    /// `step_ms = a + slope·b`, as `[a, slope]` (placement `1` of `placements/<app>.csv`).
    pub step_ms: [f64; 2],
    /// The local batches measured on one GPU, `[smallest, largest]`.
    pub local_batch: [u32; 2],
    /// `(K, E)`: iterations E the run needs at global batch K (the last row of
    /// `validation/<app>/validation-K.csv`), K increasing.
    pub iterations: &'static [(u32, u32)],
    /// A note on how well the linear step fit holds.
    pub fit_note: &'static str,
}

const FACTS: [Facts; 6] = [
    Facts {
        app: App::Cifar10,
        model: "ResNet-18 (CIFAR variant)",
        parameters: 11_173_962,
        epochs: 100,
        initial_batch: 128,
        max_batch: 4096,
        step_ms: [17.746_746, 0.664_256],
        local_batch: [32, 1024],
        iterations: &[
            (128, 39062),
            (256, 20377),
            (512, 10615),
            (1024, 5722),
            (2048, 3178),
            (4096, 2011),
        ],
        fit_note: "",
    },
    Facts {
        app: App::Imagenet,
        model: "ResNet-50",
        parameters: 25_557_032,
        epochs: 90,
        initial_batch: 200,
        max_batch: 12800,
        step_ms: [79.651_100, 4.208_173],
        local_batch: [20, 200],
        iterations: &[
            (200, 576_525),
            (400, 292_995),
            (800, 150_231),
            (1600, 78453),
            (3200, 42123),
            (6400, 23972),
            (12800, 14461),
        ],
        fit_note: "",
    },
    Facts {
        app: App::Bert,
        model: "BERT-base, SQuAD fine-tuning",
        parameters: 109_483_778,
        epochs: 2,
        initial_batch: 12,
        max_batch: 384,
        step_ms: [226.730_597, 57.832_225],
        local_batch: [4, 12],
        iterations: &[
            (12, 14774),
            (24, 7427),
            (48, 3732),
            (96, 1885),
            (192, 940),
            (384, 480),
        ],
        fit_note: "",
    },
    Facts {
        app: App::Deepspeech2,
        model: "DeepSpeech2 (2 conv + 5 bidirectional GRU-800)",
        parameters: 41_187_968,
        epochs: 80,
        initial_batch: 20,
        max_batch: 640,
        step_ms: [92.808_927, 29.051_710],
        local_batch: [10, 80],
        iterations: &[
            (20, 28536),
            (40, 14711),
            (80, 7683),
            (160, 4041),
            (320, 2264),
            (640, 1423),
        ],
        fit_note: "super-linear above a local batch of 40",
    },
    Facts {
        app: App::Yolov3,
        model: "YOLOv3 (Darknet-53 + 3-scale head, 20 classes)",
        parameters: 61_626_049,
        epochs: 50,
        initial_batch: 8,
        max_batch: 512,
        step_ms: [218.868_783, 24.304_264],
        local_batch: [4, 16],
        iterations: &[
            (8, 103_444),
            (16, 52905),
            (32, 27430),
            (64, 14577),
            (128, 8075),
            (256, 4809),
            (512, 3143),
        ],
        fit_note: "noisy",
    },
    Facts {
        app: App::Ncf,
        model: "NeuMF (GMF + 3-layer MLP), MovieLens-1M",
        parameters: 1_602_657,
        epochs: 10,
        initial_batch: 256,
        max_batch: 32768,
        step_ms: [7.649_049, 0.000_433_653],
        local_batch: [32, 32768],
        iterations: &[
            (256, 194_174),
            (512, 97094),
            (1024, 48625),
            (2048, 24308),
            (4096, 12172),
            (8192, 6122),
            (16384, 3069),
            (32768, 1548),
        ],
        fit_note: "",
    },
];

impl App {
    /// Every application, in the artifact's order.
    pub const ALL: [App; 6] = [
        App::Cifar10,
        App::Imagenet,
        App::Bert,
        App::Deepspeech2,
        App::Yolov3,
        App::Ncf,
    ];

    /// The measured checkpoint-restore delay of a restart, seconds: what the Sia artifact
    /// charges a job each time it starts, resumes or changes size, on every GPU type
    /// (MODEL.md §24.1; the paper measured 25–250 s).
    pub fn restart_delay_s(self) -> f64 {
        match self {
            App::Cifar10 => 50.0,
            App::Imagenet => 250.0,
            App::Bert => 120.0,
            App::Deepspeech2 => 25.0,
            App::Yolov3 => 80.0,
            App::Ncf => 15.0,
        }
    }

    /// The artifact's name (`cifar10`, `imagenet`, …), as in its traces and file names.
    pub fn name(self) -> &'static str {
        match self {
            App::Cifar10 => "cifar10",
            App::Imagenet => "imagenet",
            App::Bert => "bert",
            App::Deepspeech2 => "deepspeech2",
            App::Yolov3 => "yolov3",
            App::Ncf => "ncf",
        }
    }

    /// Its name for people (`BERT`, `CIFAR-10`, `DeepSpeech2`, `ImageNet`, `YOLOv3`,
    /// `NCF`): the dataset or model readers know it by.
    pub fn label(self) -> &'static str {
        match self {
            App::Cifar10 => "CIFAR-10",
            App::Imagenet => "ImageNet",
            App::Bert => "BERT",
            App::Deepspeech2 => "DeepSpeech2",
            App::Yolov3 => "YOLOv3",
            App::Ncf => "NCF",
        }
    }

    /// The measured facts.
    pub fn facts(self) -> &'static Facts {
        &FACTS[self as usize]
    }

    /// fp32 model size g in MB (10^6 bytes): 4 bytes per parameter.
    pub fn model_size_mb(self) -> f64 {
        self.facts().parameters as f64 * 4.0 / 1e6
    }

    /// The parameter groups, input side first (`param_counts.json`).
    pub fn groups(self) -> &'static [Group] {
        &groups()[self as usize]
    }
}

impl std::fmt::Display for App {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for App {
    type Err = String;
    fn from_str(s: &str) -> Result<App, String> {
        App::ALL
            .into_iter()
            .find(|a| a.name() == s.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = App::ALL.iter().map(|a| a.name()).collect();
                // A long name is not echoed whole: messages stay one line.
                let shown = if s.chars().count() <= 60 {
                    format!("{s:?}")
                } else {
                    format!("of {} characters", s.chars().count())
                };
                format!(
                    "unknown application {shown} (expected {})",
                    names.join(", ")
                )
            })
    }
}

/// A group of layers and the parameters in it.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Group {
    /// The group, in words.
    pub name: String,
    /// Its parameters.
    pub params: u64,
}

#[derive(Deserialize)]
struct Counts {
    groups: Vec<Group>,
}

/// The bundled `param_counts.json`.
pub const PARAM_COUNTS_JSON: &str = include_str!("../../../data/pollux/param_counts.json");

fn groups() -> &'static [Vec<Group>; 6] {
    static GROUPS: OnceLock<[Vec<Group>; 6]> = OnceLock::new();
    GROUPS.get_or_init(|| {
        let all: std::collections::BTreeMap<String, Counts> =
            serde_json::from_str(PARAM_COUNTS_JSON).expect("the bundled param_counts.json reads");
        App::ALL.map(|app| {
            let (_, c) = all
                .iter()
                .find(|(k, _)| k.split(" / ").next() == Some(app.name()))
                .expect("every application is in param_counts.json");
            c.groups.clone()
        })
    })
}
