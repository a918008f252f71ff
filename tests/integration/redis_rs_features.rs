//! redis-rs's own features, forwarded by the facade under their redis-rs
//! names: with only redis-script as a dependency, `redis_script::redis` has
//! the connection manager, the async cluster, r2d2, Sentinel and TLS, and
//! bindings run on them. Each case is a probe crate checked with Cargo,
//! offline, on the workspace's lock file (see `probe.rs`); the table of
//! docs/guide/redis_rs.md is compared with the facade's manifest.

use std::process::{Command, Output};

use crate::probe::{ProbeCrate, REDIS_FEATURE, compiler_errors, facade_dependency, repo};

const HIT_LUA: &str = "return redis.call('INCR', KEYS[1])\n";

/// The binding every probe calls, and `use`s.
const BINDING: &str = r#"
#![allow(dead_code)]
use redis_script::redis;
use redis_script::ScriptPipeline;

#[redis_script::redis_script(file = "lua/hit.lua", keys = 1)]
fn hit(key: &str) -> i64;
"#;

/// Checks a probe that depends on redis-script alone, with the redis-rs of
/// this build and `features` (a TOML list's items), and `code` after
/// [`BINDING`]; `extra` are more `[dependencies]` lines.
fn check(name: &str, features: &str, extra: &str, code: &str) {
    let probe = probe(name, features, extra, code);
    let output = probe.cargo("check");
    assert_checks(&output, features);
}

/// The probe [`check`] checks.
fn probe(name: &str, features: &str, extra: &str, code: &str) -> ProbeCrate {
    let probe = ProbeCrate::new(name, &format!("{BINDING}{code}"));
    probe.write("lua/hit.lua", HIT_LUA);
    let dependencies = facade_dependency(Some(&format!("{REDIS_FEATURE:?}, {features}")));
    probe.write(
        "Cargo.toml",
        &probe.manifest_with(&format!("{dependencies}{extra}")),
    );
    probe
}

/// Fails, with the compiler's errors, unless the check `output` succeeded.
fn assert_checks(output: &Output, features: &str) {
    assert!(
        output.status.success(),
        "with [{features}]:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn connection_manager() {
    check(
        "feature-connection-manager",
        "\"tokio-comp\", \"connection-manager\"",
        "",
        r#"
async fn visits(con: &mut redis::aio::ConnectionManager) -> Result<i64, redis_script::Error> {
    hit("visits").invoke_async(con).await
}

fn main() {}
"#,
    );
}

/// `cluster-async` turns on `cluster` too: the cluster pipeline takes
/// script calls.
#[test]
fn cluster_async() {
    check(
        "feature-cluster-async",
        "\"tokio-comp\", \"cluster-async\"",
        "",
        r#"
async fn visits(
    con: &mut redis::cluster_async::ClusterConnection,
) -> Result<i64, redis_script::Error> {
    hit("visits").invoke_async(con).await
}

fn queue(pipe: &mut redis::cluster::ClusterPipeline) -> Result<(), redis_script::Error> {
    pipe.evalsha_script(&hit("visits"))?;
    Ok(())
}

fn main() {}
"#,
    );
}

/// redis-rs implements r2d2's `ManageConnection` for its client; the pool
/// crate itself is the application's dependency.
#[test]
fn r2d2() {
    check(
        "feature-r2d2",
        "\"r2d2\"",
        "r2d2 = \"0.8\"\n",
        r#"
fn visits(pool: &r2d2::Pool<redis::Client>) -> Result<i64, Box<dyn std::error::Error>> {
    let mut con = pool.get()?;
    Ok(hit("visits").invoke(&mut *con)?)
}

fn main() {}
"#,
    );
}

#[test]
fn sentinel() {
    check(
        "feature-sentinel",
        "\"sentinel\"",
        "",
        r#"
fn visits(sentinel: &mut redis::sentinel::SentinelClient) -> Result<i64, Box<dyn std::error::Error>> {
    let mut con = sentinel.get_connection()?;
    Ok(hit("visits").invoke(&mut con)?)
}

fn main() {}
"#,
    );
}

/// rustls as redis-rs uses it needs no C compiler; native-tls needs
/// OpenSSL's headers, so its features are checked by the table below only.
/// On 2.0, redis-rs's `tls-rustls` alone does not build (no root store):
/// the facade's turns the system's roots on there.
///
/// The outer build needs no TLS crate: Cargo may download rustls here.
#[test]
fn tls_rustls() {
    let features = "\"tls-rustls\"";
    let probe = probe(
        "feature-tls-rustls",
        features,
        "",
        r#"
fn main() {
    let _open_with_certificates = redis::Client::build_with_tls::<&str>;
}
"#,
    );
    assert_checks(&probe.cargo_downloading("check"), features);
}

/// A `ClusterPipeline` that the application's own redis-rs dependency
/// makes, without redis-script's `cluster`: the error names the feature.
#[test]
fn a_cluster_pipeline_without_the_cluster_feature_names_it() {
    let requirement = if REDIS_FEATURE == "redis-2" {
        "=2.0.0-rc.2"
    } else {
        "1.8"
    };
    let probe = ProbeCrate::new(
        "feature-cluster-missing",
        &format!(
            "{BINDING}\nfn main() {{\n    let mut pipe = redis::cluster::cluster_pipe();\n    \
             pipe.evalsha_script(&hit(\"visits\")).unwrap();\n}}\n"
        ),
    );
    probe.write("lua/hit.lua", HIT_LUA);
    let dependencies = format!(
        "{}redis = {{ version = \"{requirement}\", default-features = false, features = [\"cluster\"] }}\n",
        facade_dependency(Some(&format!("{REDIS_FEATURE:?}")))
    );
    probe.write("Cargo.toml", &probe.manifest_with(&dependencies));
    let output = probe.cargo("check");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(!output.status.success(), "built without `cluster`");
    assert_eq!(compiler_errors(&stderr), 1, "{stderr}");
    for expected in [
        "`ClusterPipeline` is not a pipeline that takes script calls",
        "with redis-script's feature `cluster` on",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in:\n{stderr}"
        );
    }
}

/// The guide's table of forwarded features is the manifest's: each row's
/// feature turns on the redis-rs features the row names, on 1.x (`redis`)
/// and on 2.0 (`redis2`), and every feature of the facade that turns on a
/// redis-rs feature directly has a row. (Cargo itself refuses a feature
/// name that a redis-rs lacks: the lock file resolves every feature.)
#[test]
fn the_guide_lists_every_forwarded_feature() {
    let guide = std::fs::read_to_string(repo().join("docs/guide/redis_rs.md")).unwrap();
    let section = guide
        .split("\n## ")
        .find(|section| section.starts_with("redis-rs's features"))
        .expect("a section \"redis-rs's features\" in docs/guide/redis_rs.md");
    let rows: Vec<[String; 3]> = section
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<String> = line
                .split('|')
                .skip(1)
                .take(3)
                .map(|cell| cell.trim().trim_matches('`').to_owned())
                .collect();
            [cells[0].clone(), cells[1].clone(), cells[2].clone()]
        })
        .collect();
    assert!(!rows.is_empty(), "{section}");

    let output = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .current_dir(repo())
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let facade = metadata["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|package| package["name"] == "redis-script")
        .unwrap();
    let features = facade["features"].as_object().unwrap();
    let enables = |feature: &str, entry: &str| {
        features[feature]
            .as_array()
            .unwrap()
            .iter()
            .any(|enabled| enabled == entry)
    };
    for [feature, redis_1, redis_2] in &rows {
        assert!(features.contains_key(feature), "no feature {feature}");
        assert!(
            enables(feature, &format!("redis?/{redis_1}")),
            "{feature} on 1.x"
        );
        assert!(
            enables(feature, &format!("redis2?/{redis_2}")),
            "{feature} on 2.0"
        );
    }
    for (feature, enabled) in features {
        let forwards = enabled
            .as_array()
            .unwrap()
            .iter()
            .any(|entry| entry.as_str().unwrap().starts_with("redis?/"));
        assert!(
            !forwards || rows.iter().any(|row| &row[0] == feature),
            "the feature {feature} turns on a redis-rs feature and has no row in the guide"
        );
    }
}
