//! How long the analyzer's parser takes on the shipped scripts.

use redis_script_analyzer::check_syntax;

/// Not a timing assertion: prints how long a realistic ~200-line script
/// takes to parse (the budget is 1 ms, unoptimized). Run with
/// `cargo test --test integration bench_parse -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_parse() {
    // The project's own scripts, each as a function, up to 200 lines.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "lua"))
        .collect();
    files.sort();
    let mut src = String::new();
    for (i, path) in files.iter().enumerate() {
        let body = std::fs::read_to_string(path).unwrap();
        src.push_str(&format!("local function script{i}(...)\n{body}\nend\n"));
        if src.lines().count() >= 200 {
            break;
        }
    }
    src.push_str("return script0(...)\n");
    check_syntax(&src).expect("the scripts parse");
    let runs = 200;
    let start = std::time::Instant::now();
    for _ in 0..runs {
        check_syntax(std::hint::black_box(&src)).expect("the scripts parse");
    }
    let each = start.elapsed() / runs;
    eprintln!(
        "parse: {} lines, {} bytes: {each:?} per parse",
        src.lines().count(),
        src.len()
    );
}
