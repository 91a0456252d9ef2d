//! Traces: the bundled workloads read into scenarios with exact arrival times, and every
//! problem in a trace named by row and column.

use smd_apps::app::App;
use smd_apps::machines::{machine_type, pool};
use smd_apps::trace::{parse, scenario_as, workload, WORKLOADS};
use smd_core::scenario::Architecture;
use smd_core::Scenario;

#[test]
fn bundled_workloads_round_trip_arrival_times_exactly() {
    let cluster = pool(machine_type("t4x4").unwrap(), 16.0);
    for (name, text) in WORKLOADS {
        let arrivals = parse(text).unwrap();
        let want = if name.ends_with("-half") { 80 } else { 160 };
        assert_eq!(arrivals.len(), want, "{name}");
        for architecture in Architecture::ALL {
            let s = scenario_as(&arrivals, cluster.clone(), architecture).unwrap();
            s.validate().unwrap();
            check_rows(text, &s);
        }
    }
    assert!(workload("workload-9").unwrap_err().contains("workload-1"));
}

/// Each job of `s` is its row of `text`, through the file format and back: its name,
/// arrival (bit for bit), application, request and batch; a parameter-server job's limit
/// holds its request.
fn check_rows(text: &str, s: &Scenario) {
    {
        // Through the file format and back.
        let back = Scenario::from_json(&s.to_json()).unwrap();
        assert_eq!(&back, s);
        let lines: Vec<&str> = text.lines().skip(1).filter(|l| !l.is_empty()).collect();
        for (job, line) in back.jobs.iter().zip(lines) {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(job.id, cells[0]);
            assert_eq!(
                job.arrival_s.unwrap().to_bits(),
                cells[1].parse::<f64>().unwrap().to_bits()
            );
            let app: App = cells[2].parse().unwrap();
            assert!(job.id.starts_with(app.name()), "{}", job.id);
            assert_eq!(job.requested_workers, Some(cells[3].parse().unwrap()));
            let batch = cells[4].parse::<f64>().unwrap();
            match &job.measured {
                Some(m) => {
                    assert_eq!((m.app, m.batch_size), (app, Some(batch)), "{}", job.id);
                }
                None => {
                    assert_eq!(job.global_batch, batch);
                    // The limit holds at least the requested workers and as many PSs.
                    let l = s.cluster.instance.scale(job.limit_instances).to_array();
                    let need = job.worker.scale(cells[3].parse().unwrap()).to_array();
                    assert!((0..4).all(|r| need[r] <= l[r]), "{}", job.id);
                }
            }
        }
    }
}

/// The message for `text`, which must fail.
fn fails(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn problems_name_the_row_and_column() {
    let head = "name,time,application,num_replicas,batch_size\n";
    let good = "a,0,bert,2,48\n";
    let cases = [
        (
            format!("{head}{good}b,1,bert,2,4x8\n"),
            "row 2 (line 3), column \"batch_size\"",
        ),
        (
            format!("{head}{good}b,-5,bert,2,48\n"),
            "column \"time\": must be ≥ 0",
        ),
        (
            format!("{head}{good}b,18e96,bert,2,48\n"),
            "column \"time\": must be 0 or between 1e-12 and 1e12 s",
        ),
        (
            format!("{head}b,1,resnet,2,48\n"),
            "column \"application\": unknown application",
        ),
        (format!("{head}b,1,bert,0,48\n"), "column \"num_replicas\""),
        (
            format!("{head}b,1,bert,2.5,48\n"),
            "column \"num_replicas\"",
        ),
        (
            format!("{head}b,1,bert,2,1000\n"),
            "column \"batch_size\": must be between 12 and 384",
        ),
        (
            format!("{head}{good}a,1,bert,2,48\n"),
            "column \"name\": \"a\" names an earlier row",
        ),
        (format!("{head}b,1,bert,2\n"), "row 1 (line 2): has 4 cells"),
        (
            "name,time,application,num_replicas\n".to_owned(),
            "missing column \"batch_size\"",
        ),
        (
            format!("{}gpus\n", head.trim_end().to_owned() + ","),
            "unknown column \"gpus\"",
        ),
        (String::new(), "the trace is empty"),
        (
            format!("{head}\"b,1,bert,2,48\n"),
            "quoted cell is not closed",
        ),
    ];
    for (text, needle) in cases {
        let m = fails(&text);
        assert!(m.contains(needle), "{text:?}: {m}");
    }
    // Columns in any order, blank lines and CRLF are fine.
    let shuffled = "batch_size,name,application,time,num_replicas\r\n\r\n48,a,bert,7.5,2\r\n";
    let a = parse(shuffled).unwrap();
    assert_eq!(
        (a[0].name.as_str(), a[0].time_s, a[0].num_replicas),
        ("a", 7.5, 2)
    );
}

#[test]
fn replicas_say_the_real_limit_numbers_are_short_and_big_requests_are_warned() {
    let head = "name,time,application,num_replicas,batch_size\n";
    let m = fails(&format!("{head}a,0,bert,100000,48\n"));
    assert!(
        m.ends_with("column \"num_replicas\": must be a whole number from 1 to 64000 (got 100000)"),
        "{m}"
    );
    let m = fails(&format!("{head}a,1e300,bert,2,48\n"));
    assert!(m.ends_with("(got 1e300)"), "{m}");
    let m = fails(&format!("{head}a,-1e300,bert,2,48\n"));
    assert!(m.ends_with("must be ≥ 0 s (got -1e300)"), "{m}");
    // A BOM before the header is not part of the column's name.
    assert_eq!(
        parse(&format!("\u{feff}{head}a,0,bert,2,48\n"))
            .unwrap()
            .len(),
        1
    );
    // 65 GPUs on 16 × t4x4 (64): a warning naming the row, the line and the job.
    let a = parse(&format!("{head}a,0,bert,64,48\nb,5,bert,65,48\n")).unwrap();
    let cluster = pool(machine_type("t4x4").unwrap(), 16.0);
    let w: Vec<String> = smd_apps::trace::warnings(&a, &cluster)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        w,
        ["row 2 (line 3), column \"num_replicas\": job \"b\" asks for 65 GPUs, more than the cluster's 64: it cannot run at its request"]
    );
}

#[test]
fn a_trace_longer_than_the_row_limit_is_refused_at_the_first_row_too_many() {
    use smd_apps::trace::MAX_ROWS;
    let mut text = String::from("name,time,application,num_replicas,batch_size\n");
    for i in 0..=MAX_ROWS {
        text.push_str(&format!("j{i},{i},bert,2,48\n"));
    }
    let m = fails(&text);
    assert!(
        m.starts_with(&format!(
            "row {} (line {}): a trace has at most {MAX_ROWS} rows",
            MAX_ROWS + 1,
            MAX_ROWS + 2
        )),
        "{m}"
    );
    // One row fewer is read whole.
    let cut = text.trim_end().rsplit_once('\n').unwrap().0;
    assert_eq!(parse(cut).unwrap().len(), MAX_ROWS);
}

#[test]
fn lone_carriage_returns_end_rows_as_line_feeds_do() {
    let text = WORKLOADS[0].1;
    let cr = text.replace("\r\n", "\n").replace('\n', "\r");
    assert_eq!(parse(&cr).unwrap(), parse(text).unwrap());
}

#[test]
fn a_name_too_long_is_refused_at_its_row_and_column_and_echoed_short() {
    let head = "name,time,application,num_replicas,batch_size\n";
    let m = fails(&format!(
        "{head}a,0,bert,2,48\n{},1,bert,2,48\n",
        "x".repeat(5000)
    ));
    assert!(
        m.starts_with("row 2 (line 3), column \"name\": \"xxxx")
            && m.ends_with("… (5000 characters)\" is longer than 200 characters"),
        "{m}"
    );
    assert!(m.len() < 150, "{m}");
    // 200 characters are a name.
    assert!(parse(&format!("{head}{},1,bert,2,48\n", "x".repeat(200))).is_ok());
}

#[test]
fn times_30_days_out_are_warned_about_once_with_what_to_do() {
    let head = "name,time,application,num_replicas,batch_size\n";
    let a = parse(&format!(
        "{head}a,0,bert,2,48\nb,1700000000,bert,2,48\nc,1700000060,bert,2,48\nd,2591999,bert,2,48\n"
    ))
    .unwrap();
    let cluster = pool(machine_type("t4x4").unwrap(), 16.0);
    let w: Vec<String> = smd_apps::trace::warnings(&a, &cluster)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with(
            "row 2 (line 3), column \"time\": 1.7e9 s is 30 days or more (1 more row too)"
        ) && w[0].contains("subtract the earliest"),
        "{w:?}"
    );
}

/// The Sia artifact's workloads read, by name, with the sizes its README gives: 160 jobs
/// per Philly and Helios workload, 8 × R per Helios workload at R jobs per hour, and no
/// ncf.
#[test]
fn the_sia_workloads_read_with_their_sizes() {
    use smd_apps::trace::{parse, workload, SIA_WORKLOADS};
    for (name, text) in SIA_WORKLOADS {
        let rows = parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = match name.strip_prefix("helios-rate-") {
            Some(rest) => 8 * rest.split('-').next().unwrap().parse::<usize>().unwrap(),
            None => 160,
        };
        assert_eq!(rows.len(), want, "{name}");
        assert_eq!(workload(name).unwrap(), text);
        assert!(!text.contains(",ncf,"), "{name}");
    }
    assert!(workload("philly-9")
        .unwrap_err()
        .contains("helios-rate-R-K"));
}
