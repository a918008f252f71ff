//! What a call tells an application that asks: the spans of `tracing` and
//! the metrics of the `metrics` facade, by OpenTelemetry's database
//! conventions, and the counts of `Script::stats`, for a warm call, a
//! recovery, a server's refusal, a Lua error, pipelines of one, three and
//! mixed operations, a batch, a function whose library was missing or held
//! it without `no-writes`, a cluster's cross-slot refusal, a declared server
//! and another span level.
//! Each binding here is called by one test only, so its counts are the
//! test's own.

mod capture;

use redis::ConnectionLike;
use redis_script::{
    Applied, Batch, ErrorClass, NoScriptFallback, Script, ScriptPipeline, ScriptStats,
    redis_function, redis_script,
};

use self::capture::{Metrics, SpanRecord, capture};
use crate::cluster_server::RedisCluster;
use crate::invocation::flush_scripts;
use crate::server::RedisServer;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn observed_warm(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn observed_recovered(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn observed_recovered_async(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn observed_refused(counter: &str) -> i64;

#[redis_script(file = "tests/lua/errors.lua", keys = 0)]
fn observed_lua_error(how: &str) -> Option<String>;

#[redis_script(file = "tests/lua/set_value.lua", keys = 1)]
fn observed_values(key: &str, value: &str) -> Option<String>;

#[redis_script(file = "tests/lua/set_value.lua", keys = 1)]
fn observed_in_pipeline(key: &str, value: &str) -> Option<String>;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn observed_in_multi(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn observed_in_batch(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_then_fail.lua", keys = 1)]
fn observed_batch_error(counter: &str) -> i64;

#[redis_script(file = "tests/lua/set_value.lua", keys = 1)]
fn observed_prefixed(key: &str, value: &str) -> Option<String>;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn observed_on_server(counter: &str) -> i64;

#[redis_script(file = "tests/lua/incr_counter.lua", keys = 1)]
fn observed_at_debug(counter: &str) -> i64;

#[redis_script(file = "tests/lua/echo_argv.lua", keys = 2)]
fn observed_cross_slot(a: &str, b: &str) -> Vec<String>;

#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_add",
    keys = 1
)]
fn observed_stock_add(stock: &str, item: &str, amount: i64) -> i64;

#[redis_function(
    library = "tests/lua/functions/stock.lua",
    name = "stock_count",
    keys = 1
)]
fn observed_stock_count(stock: &str, item: &str) -> i64;

/// `CONFIG SET maxmemory`: at 1 byte, the server refuses every write (OOM).
fn set_maxmemory(con: &mut dyn ConnectionLike, bytes: u64) {
    redis::cmd("CONFIG")
        .arg("SET")
        .arg("maxmemory")
        .arg(bytes)
        .exec(con)
        .unwrap();
}

/// The span of the one call made inside `spans`.
fn call_span(spans: &capture::Spans) -> SpanRecord {
    spans.only("redis_script.call")
}

/// The conventions' histogram of operation durations.
const DURATION: &str = "db.client.operation.duration";

/// What the conventions call the stored procedure a call runs: the SHA1
/// of a script, the name of a function.
fn procedure(script: &Script) -> &'static str {
    script.function_name().unwrap_or(script.sha1())
}

/// Checks the fields every call span has, for `script` sent as `operation`
/// with `values` keys and arguments.
fn assert_call_fields(span: &SpanRecord, script: &Script, operation: &str, values: usize) {
    let procedure = procedure(script);
    assert_eq!(span.field("otel.name"), format!("{operation} {procedure}"));
    assert_eq!(span.field("otel.kind"), "client");
    assert_eq!(span.field("db.system.name"), "redis");
    // A string, as Redis's conventions ask, not the index as a number.
    assert_eq!(span.text("db.namespace"), "0");
    assert_eq!(span.field("db.operation.name"), operation);
    assert_eq!(span.field("db.stored_procedure.name"), procedure);
    assert_eq!(
        span.field("db.query.text"),
        format!(
            "{operation} {procedure} {}{}",
            script.key_count(),
            " ?".repeat(values)
        )
    );
    assert_eq!(span.field("redis_script.binding"), script.name());
    assert_eq!(span.field("redis_script.file"), script.file());
    assert_eq!(
        span.field("redis_script.key_count"),
        script.key_count().to_string()
    );
    assert!(!span.has("db.operation.batch.size"), "{span:#?}");
}

/// Checks that the span shows no failure.
fn assert_succeeded(span: &SpanRecord) {
    for field in [
        "otel.status_code",
        "error.type",
        "db.response.status_code",
        "redis_script.applied",
    ] {
        assert!(
            !span.has(field),
            "{field} on a call that succeeded: {span:#?}"
        );
    }
}

/// Checks a failure's fields on the span: `error_type`, the server's
/// `status_code` if it replied one.
fn assert_failed(span: &SpanRecord, error_type: &str, status_code: Option<&str>, applied: &str) {
    assert_eq!(span.field("otel.status_code"), "ERROR");
    assert_eq!(span.field("error.type"), error_type);
    assert_eq!(
        span.fields
            .get("db.response.status_code")
            .map(String::as_str),
        status_code
    );
    assert_eq!(span.field("redis_script.applied"), applied);
}

fn recoveries_key(script: &Script) -> String {
    format!("redis_script_recoveries_total{{script={}}}", script.name())
}

/// How a call failed, as its metrics and counts tell it.
struct Failure {
    class: ErrorClass,
    error_type: &'static str,
    status_code: Option<&'static str>,
}

/// The one histogram of `DURATION` with `labels` (another test may have
/// declared a server meanwhile, adding labels: these are matched as a
/// subset), which must have received one value; its key.
fn one_duration(metrics: &Metrics, labels: &[(&str, &str)]) -> String {
    let found = metrics.histograms(DURATION, labels);
    assert_eq!(found.len(), 1, "{DURATION} with {labels:?}: {found:#?}");
    let (key, samples) = found.into_iter().next().unwrap();
    assert_eq!(samples, 1, "{key}");
    key
}

/// Checks one call's metrics and counts: one duration, labelled as the
/// conventions say (and with the failure's `error.type` and
/// `db.response.status_code`, if it failed), `recoveries` recoveries.
fn assert_counted(
    metrics: &Metrics,
    script: &Script,
    operation: &str,
    stats: ScriptStats,
    recoveries: u64,
    failed: Option<Failure>,
) {
    let key = one_duration(
        metrics,
        &[
            ("db.system.name", "redis"),
            ("db.operation.name", operation),
            ("db.stored_procedure.name", procedure(script)),
            ("db.namespace", "0"),
            ("redis_script.binding", script.name()),
        ],
    );
    let (_, labels) = capture::split_key(&key);
    let label = |name: &str| {
        labels
            .iter()
            .find(|(label, _)| label == name)
            .map(|(_, value)| value.as_str())
    };
    assert_eq!(
        label("error.type"),
        failed.as_ref().map(|failure| failure.error_type),
        "{key}"
    );
    assert_eq!(
        label("db.response.status_code"),
        failed.as_ref().and_then(|failure| failure.status_code),
        "{key}"
    );
    assert_eq!(
        metrics.counter(&recoveries_key(script)),
        recoveries,
        "{:#?}",
        metrics.counters()
    );
    assert_eq!(stats.calls(), 1);
    assert_eq!(stats.recoveries(), recoveries);
    assert_eq!(stats.errors(), u64::from(failed.is_some()));
    if let Some(failure) = failed {
        assert_eq!(stats.errors_of(failure.class), 1);
    }
}

/// The one event of `span`, which must be a recovery sent as `how`.
fn assert_recovery_event(span: &SpanRecord, how: &str) {
    assert_eq!(span.field("redis_script.recovery"), how);
    assert_eq!(span.events.len(), 1, "{span:#?}");
    let event = &span.events[0];
    assert_eq!(event["redis_script.recovery"], how);
    assert!(event["message"].contains("recovering"), "{event:?}");
}

#[test]
fn a_warm_call_is_one_span_and_one_duration_in_seconds() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let script = &observed_warm::SCRIPT;
    script.load(&mut con).unwrap();
    let before = script.stats();
    let (reply, spans, metrics) = capture(|| {
        redis_script::observe::describe_metrics();
        observed_warm("hits").invoke(&mut con)
    });
    assert_eq!(reply.unwrap(), 1);

    let span = call_span(&spans);
    assert_eq!(span.level, tracing::Level::INFO);
    assert_call_fields(&span, script, "EVALSHA", 1);
    assert_eq!(
        span.field("db.query.text"),
        format!("EVALSHA {} 1 ?", script.sha1())
    );
    assert!(!span.has("redis_script.library"));
    assert!(!span.has("redis_script.recovery"));
    assert!(span.events.is_empty(), "{span:#?}");
    assert_succeeded(&span);
    assert_counted(
        &metrics,
        script,
        "EVALSHA",
        script.stats().since(&before),
        0,
        None,
    );
    assert_eq!(metrics.unit(DURATION), Some(metrics::Unit::Seconds));
}

#[test]
fn a_recovery_is_an_event_inside_the_span_and_a_count() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let script = &observed_recovered::SCRIPT;
    for (fallback, how) in [
        (NoScriptFallback::Eval, "EVAL"),
        (NoScriptFallback::Load, "SCRIPT LOAD"),
    ] {
        flush_scripts(&mut con);
        let before = script.stats();
        let call = observed_recovered("hits").on_noscript(fallback);
        let (reply, spans, metrics) = capture(|| call.invoke(&mut con));
        reply.unwrap();
        let span = call_span(&spans);
        // The operation stays the call's EVALSHA, whatever the recovery sent.
        assert_call_fields(&span, script, "EVALSHA", 1);
        assert_recovery_event(&span, how);
        assert_succeeded(&span);
        assert_counted(
            &metrics,
            script,
            "EVALSHA",
            script.stats().since(&before),
            1,
            None,
        );
    }
}

#[test]
fn an_async_call_recovers_inside_its_span() {
    let server = RedisServer::start();
    let client = server.client();
    let script = &observed_recovered_async::SCRIPT;
    let before = script.stats();
    let (reply, spans, metrics) = capture(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let mut con = client.get_multiplexed_async_connection().await.unwrap();
            observed_recovered_async("hits")
                .invoke_async(&mut con)
                .await
        })
    });
    assert_eq!(reply.unwrap(), 1);
    let span = call_span(&spans);
    assert_call_fields(&span, script, "EVALSHA", 1);
    assert_recovery_event(&span, "EVAL");
    assert_counted(
        &metrics,
        script,
        "EVALSHA",
        script.stats().since(&before),
        1,
        None,
    );
}

#[test]
fn a_refusal_by_the_server_records_its_code_and_that_nothing_ran() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let script = &observed_refused::SCRIPT;
    script.load(&mut con).unwrap();
    // With no memory to spare, the server refuses the script's write.
    set_maxmemory(&mut con, 1);
    let before = script.stats();
    let (reply, spans, metrics) = capture(|| observed_refused("hits").invoke(&mut con));
    let error = reply.unwrap_err();
    assert_eq!(error.code(), Some("OOM"), "{error}");
    assert_eq!(error.applied(), Applied::No);
    assert_eq!(error.class(), ErrorClass::Refused);

    let span = call_span(&spans);
    assert_call_fields(&span, script, "EVALSHA", 1);
    assert_failed(&span, "OOM", Some("OOM"), "no");
    assert!(
        span.field("otel.status_description").contains("OOM"),
        "{span:#?}"
    );
    assert_counted(
        &metrics,
        script,
        "EVALSHA",
        script.stats().since(&before),
        0,
        Some(Failure {
            class: ErrorClass::Refused,
            error_type: "OOM",
            status_code: Some("OOM"),
        }),
    );
}

#[test]
fn a_lua_error_records_its_code_and_that_it_may_have_run() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let script = &observed_lua_error::SCRIPT;
    let before = script.stats();
    let (reply, spans, metrics) = capture(|| observed_lua_error("error").invoke(&mut con));
    let error = reply.unwrap_err();
    assert_eq!(error.class(), ErrorClass::Script);

    let span = call_span(&spans);
    assert_call_fields(&span, script, "EVALSHA", 1);
    assert_failed(&span, "ERR", Some("ERR"), "maybe");
    assert!(
        span.field("otel.status_description").contains("boom"),
        "{span:#?}"
    );
    // The script was not cached: the call recovered, then failed.
    assert_recovery_event(&span, "EVAL");
    assert_counted(
        &metrics,
        script,
        "EVALSHA",
        script.stats().since(&before),
        1,
        Some(Failure {
            class: ErrorClass::Script,
            error_type: "ERR",
            status_code: Some("ERR"),
        }),
    );
}

#[test]
fn a_prefixed_call_is_observed_as_the_same_call_without_its_keys_or_prefix() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let prefix = redis_script::KeyPrefix::new("tenant-secret:").unwrap();
    let script = &observed_prefixed::SCRIPT;
    let mut tenant = redis_script::PrefixedConnection::new(server.connection(), prefix.clone());
    let (reply, spans, _) = capture(|| {
        tenant.invoke(&observed_prefixed("key-secret", "v"))?;
        observed_prefixed("key-secret", "v")
            .key_prefix(&prefix)
            .invoke(&mut con)
    });
    reply.unwrap();
    for span in spans.all() {
        assert_call_fields(&span, script, "EVALSHA", 2);
        assert_succeeded(&span);
        for text in span.fields.values() {
            assert!(!text.contains("secret"), "a key or the prefix in {span:#?}");
        }
    }
    assert_eq!(spans.all().len(), 2);
}

#[test]
fn key_and_argument_values_appear_in_spans_only_when_asked_for() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let (key, value) = ("secret-key-4711", "secret-value-0815");
    // Failing calls too: an error's message must not carry them either.
    let calls = |con: &mut redis::Connection| {
        observed_values(key, value).invoke(con).unwrap();
        set_maxmemory(con, 1);
        observed_values(key, value).invoke(con).unwrap_err();
        set_maxmemory(con, 0);
    };
    let ((), spans, _) = capture(|| calls(&mut con));
    let spans = spans.all();
    assert_eq!(spans.len(), 2);
    for span in &spans {
        let texts = span
            .fields
            .values()
            .chain(span.events.iter().flat_map(|event| event.values()));
        for text in texts {
            assert!(!text.contains("secret"), "a value in {span:#?}");
        }
        assert!(!span.has("redis_script.keys") && !span.has("redis_script.args"));
        assert!(span.field("db.query.text").ends_with(" 1 ? ?"), "{span:#?}");
    }

    // The program's opt-in (global: the one test that turns it on).
    redis_script::observe::record_values(true);
    let (reply, spans, _) = capture(|| observed_values(key, value).invoke(&mut con));
    redis_script::observe::record_values(false);
    reply.unwrap();
    let span = call_span(&spans);
    assert_eq!(span.field("redis_script.keys"), format!("[{key:?}]"));
    assert_eq!(span.field("redis_script.args"), format!("[{value:?}]"));
    // The query text keeps its placeholders.
    assert!(!span.field("db.query.text").contains("secret"), "{span:#?}");
}

#[test]
fn a_pipeline_is_one_span_named_by_the_conventions_batch_rules() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let (in_pipeline, in_multi) = (&observed_in_pipeline::SCRIPT, &observed_in_multi::SCRIPT);
    let before = (in_pipeline.stats(), in_multi.stats());
    let set_sha = in_pipeline.sha1();

    // Different commands: PIPELINE, the library's SCRIPT LOAD not counted.
    let mut pipe = redis::pipe();
    pipe.evalsha_script(&observed_in_pipeline("a", "1"))
        .unwrap();
    pipe.eval_script(&observed_in_multi("n")).unwrap();
    pipe.evalsha_script(&observed_in_pipeline("b", "2"))
        .unwrap();
    pipe.cmd("INCRBY").arg("hits").arg(2);
    let (reply, spans, metrics) = capture(|| {
        pipe.observed()
            .query::<(String, i64, String, i64)>(&mut con)
    });
    assert_eq!(reply.unwrap(), ("1".into(), 1, "2".into(), 2));
    let span = spans.only("redis_script.pipeline");
    assert_eq!(span.field("otel.kind"), "client");
    assert_eq!(span.field("db.system.name"), "redis");
    assert_eq!(span.text("db.namespace"), "0");
    assert_eq!(span.field("db.operation.name"), "PIPELINE");
    assert_eq!(span.field("otel.name"), "PIPELINE");
    // EVALSHA, EVAL, EVALSHA, INCRBY.
    assert_eq!(span.integer("db.operation.batch.size"), "4");
    assert!(!span.has("db.stored_procedure.name"), "{span:#?}");
    assert_eq!(
        span.field("db.query.text"),
        format!("EVALSHA {set_sha} 1 ? ?; EVAL ? 1 ?; EVALSHA {set_sha} 1 ? ?; INCRBY ? ?")
    );
    assert_eq!(
        span.field("redis_script.scripts"),
        "tests/lua/set_value.lua, tests/lua/incr_counter.lua"
    );
    assert_succeeded(&span);
    one_duration(
        &metrics,
        &[
            ("db.system.name", "redis"),
            ("db.operation.name", "PIPELINE"),
            ("db.namespace", "0"),
        ],
    );
    // Calls count when queued: before the capture.
    assert_eq!(in_pipeline.stats().since(&before.0).calls(), 2);
    assert_eq!(in_multi.stats().since(&before.1).calls(), 1);

    // Three calls of one script: PIPELINE EVALSHA, and the script.
    let mut pipe = redis::pipe();
    for key in ["c", "d", "e"] {
        pipe.evalsha_script(&observed_in_pipeline(key, "3"))
            .unwrap();
    }
    let (reply, spans, metrics) = capture(|| pipe.observed().query::<Vec<String>>(&mut con));
    assert_eq!(reply.unwrap(), ["3", "3", "3"]);
    let span = spans.only("redis_script.pipeline");
    assert_eq!(span.field("db.operation.name"), "PIPELINE EVALSHA");
    assert_eq!(span.field("db.stored_procedure.name"), set_sha);
    assert_eq!(
        span.field("otel.name"),
        format!("PIPELINE EVALSHA {set_sha}")
    );
    assert_eq!(span.integer("db.operation.batch.size"), "3");
    assert_eq!(
        span.field("db.query.text"),
        format!("EVALSHA {set_sha} 1 ? ?")
    );
    one_duration(
        &metrics,
        &[
            ("db.operation.name", "PIPELINE EVALSHA"),
            ("db.stored_procedure.name", set_sha),
        ],
    );

    // One call: modelled as that call, with no batch size.
    let mut pipe = redis::pipe();
    pipe.evalsha_script(&observed_in_pipeline("f", "4"))
        .unwrap();
    let (reply, spans, metrics) = capture(|| pipe.observed().query::<(String,)>(&mut con));
    assert_eq!(reply.unwrap(), ("4".into(),));
    let span = spans.only("redis_script.pipeline");
    assert_eq!(span.field("db.operation.name"), "EVALSHA");
    assert_eq!(span.field("otel.name"), format!("EVALSHA {set_sha}"));
    assert!(!span.has("db.operation.batch.size"), "{span:#?}");
    one_duration(&metrics, &[("db.operation.name", "EVALSHA")]);

    // An atomic pipeline whose EXEC fails: calls of a script on a string key
    // that is a list.
    redis::cmd("RPUSH")
        .arg("list")
        .arg("x")
        .exec(&mut con)
        .unwrap();
    let mut multi = redis::pipe();
    multi.atomic();
    multi.evalsha_script(&observed_in_multi("list")).unwrap();
    multi.evalsha_script(&observed_in_multi("list")).unwrap();
    let (reply, spans, metrics) = capture(|| multi.observed().query::<(i64, i64)>(&mut con));
    // redis-rs wraps the failed command's error, so its code is inside.
    let error = reply.unwrap_err();
    assert!(error.to_string().contains("WRONGTYPE"), "{error}");
    let span = spans.only("redis_script.pipeline");
    assert_eq!(span.field("db.operation.name"), "MULTI EVALSHA");
    assert_eq!(span.field("db.operation.batch.size"), "2");
    assert_eq!(
        span.field("redis_script.scripts"),
        "tests/lua/incr_counter.lua"
    );
    assert_eq!(span.field("otel.status_code"), "ERROR");
    assert_eq!(span.field("error.type"), "WRONGTYPE");
    assert_eq!(span.field("db.response.status_code"), "WRONGTYPE");
    one_duration(
        &metrics,
        &[
            ("db.operation.name", "MULTI EVALSHA"),
            ("error.type", "WRONGTYPE"),
            ("db.response.status_code", "WRONGTYPE"),
        ],
    );
    // A failed call's reply decoded from the pipeline counts as its error.
    let mut pipe = redis::pipe();
    pipe.evalsha_script(&observed_in_multi("list"))
        .unwrap()
        .ignore_errors();
    let replies: Vec<redis::Value> = pipe.query(&mut con).unwrap();
    let call = observed_in_multi("list");
    let before = in_multi.stats();
    call.decode(Ok(replies[0].clone())).unwrap_err();
    assert_eq!(
        in_multi
            .stats()
            .since(&before)
            .errors_of(ErrorClass::Script),
        1
    );
}

#[test]
fn a_batch_run_is_one_span_and_each_failed_call_counts_for_its_script() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let (ok, failing) = (&observed_in_batch::SCRIPT, &observed_batch_error::SCRIPT);
    let before = (ok.stats(), failing.stats());
    let mut batch = Batch::new();
    let first = batch.add(&observed_in_batch("n")).unwrap();
    let halfway = batch.add(&observed_batch_error("n")).unwrap();
    let last = batch.add(&observed_in_batch("n")).unwrap();
    let (mut replies, spans, metrics) = capture(|| batch.run(&mut con));
    assert_eq!(replies.take(&first).unwrap(), 1);
    assert_eq!(replies.take(&halfway).unwrap_err().code(), Some("HALFWAY"));
    assert_eq!(replies.take(&last).unwrap(), 3);
    let span = spans.only("redis_script.pipeline");
    // Three EVALSHAs of two scripts (their SCRIPT LOADs are the library's).
    assert_eq!(span.field("db.operation.name"), "PIPELINE EVALSHA");
    assert_eq!(span.field("otel.name"), "PIPELINE EVALSHA");
    assert!(!span.has("db.stored_procedure.name"), "{span:#?}");
    assert_eq!(span.field("db.operation.batch.size"), "3");
    assert_eq!(
        span.field("redis_script.scripts"),
        "tests/lua/incr_counter.lua, tests/lua/incr_then_fail.lua"
    );
    // The run succeeded as a whole: its calls' errors are their own.
    assert_succeeded(&span);
    one_duration(&metrics, &[("db.operation.name", "PIPELINE EVALSHA")]);
    assert_eq!(ok.stats().since(&before.0).calls(), 2);
    assert_eq!(ok.stats().since(&before.0).errors(), 0);
    let failed = failing.stats().since(&before.1);
    assert_eq!(failed.calls(), 1);
    assert_eq!(failed.errors_of(ErrorClass::Script), 1);
}

#[test]
fn a_function_whose_library_is_missing_loads_it_inside_its_span() {
    let server = RedisServer::start();
    let mut con = server.connection();
    let script = &observed_stock_add::SCRIPT;
    let before = script.stats();
    let (reply, spans, metrics) =
        capture(|| observed_stock_add("stock", "apple", 2).invoke(&mut con));
    assert_eq!(reply.unwrap(), 2);
    let span = call_span(&spans);
    assert_call_fields(&span, script, "FCALL", 3);
    assert_eq!(span.field("otel.name"), "FCALL stock_add");
    assert_eq!(span.field("db.query.text"), "FCALL stock_add 1 ? ? ?");
    assert_eq!(span.field("redis_script.library"), "stock");
    assert_recovery_event(&span, "FUNCTION LOAD");
    assert_succeeded(&span);
    assert_counted(
        &metrics,
        script,
        "FCALL",
        script.stats().since(&before),
        1,
        None,
    );
}

#[test]
fn a_function_the_server_holds_without_no_writes_is_reloaded_inside_its_span() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // An older build's version of the library: `stock_count` may write.
    redis::cmd("FUNCTION")
        .arg("LOAD")
        .arg(include_str!("../../lua/functions/stock_writable_count.lua"))
        .exec(&mut con)
        .unwrap();
    let script = &observed_stock_count::SCRIPT;
    let before = script.stats();
    let (reply, spans, metrics) =
        capture(|| observed_stock_count("stock", "apple").invoke(&mut con));
    assert_eq!(reply.unwrap(), 0);
    let span = call_span(&spans);
    assert_call_fields(&span, script, "FCALL_RO", 2);
    assert_recovery_event(&span, "FUNCTION LOAD");
    assert_succeeded(&span);
    assert_counted(
        &metrics,
        script,
        "FCALL_RO",
        script.stats().since(&before),
        1,
        None,
    );
}

#[test]
fn a_cross_slot_refusal_on_a_cluster_records_slots_not_keys() {
    let cluster = RedisCluster::start(3, 0);
    let mut con = cluster.connection();
    let script = &observed_cross_slot::SCRIPT;
    let (a, b) = ("secret-user:1", "secret-user:2");
    let before = script.stats();
    let (reply, spans, metrics) = capture(|| observed_cross_slot(a, b).invoke(&mut con));
    let error = reply.unwrap_err();
    assert_eq!(error.class(), ErrorClass::CrossSlot);

    let span = call_span(&spans);
    assert_call_fields(&span, script, "EVALSHA", 2);
    // The runtime's own refusal: no server code, the class as the type.
    assert_failed(&span, "cross_slot", None, "no");
    let description = span.field("otel.status_description");
    assert!(
        description.contains("different hash slots"),
        "{description}"
    );
    assert!(!description.contains("secret"), "{description}");
    // The cluster refused it on whichever node the first key maps to; a
    // node without the script asked for it again first, or not.
    let recoveries = script.stats().since(&before).recoveries();
    assert_counted(
        &metrics,
        script,
        "EVALSHA",
        script.stats().since(&before),
        recoveries,
        Some(Failure {
            class: ErrorClass::CrossSlot,
            error_type: "cross_slot",
            status_code: None,
        }),
    );
    assert!(con.is_open());
}

#[test]
fn a_declared_server_is_on_spans_and_metrics() {
    let server = RedisServer::start();
    let client = server.client();
    let mut con = client.get_connection().unwrap();
    let script = &observed_on_server::SCRIPT;
    // Global: the one test that declares a server (the others match metric
    // labels as a subset, and do not look for these fields).
    assert!(redis_script::observe::set_server_from(
        client.get_connection_info()
    ));
    let (reply, spans, metrics) = capture(|| observed_on_server("hits").invoke(&mut con));
    redis_script::observe::clear_server();
    reply.unwrap();
    let port = server.port().to_string();
    let span = call_span(&spans);
    assert_eq!(span.field("server.address"), "127.0.0.1");
    assert_eq!(span.integer("server.port"), port);
    one_duration(
        &metrics,
        &[
            ("redis_script.binding", script.name()),
            ("server.address", "127.0.0.1"),
            ("server.port", &port),
        ],
    );
}

#[test]
fn the_span_level_is_the_programs_choice() {
    let server = RedisServer::start();
    let mut con = server.connection();
    // Global: the one test that changes it (the others do not look).
    redis_script::observe::set_span_level(tracing::Level::DEBUG);
    let (reply, spans, _) = capture(|| observed_at_debug("hits").invoke(&mut con));
    redis_script::observe::set_span_level(tracing::Level::INFO);
    reply.unwrap();
    let span = call_span(&spans);
    assert_eq!(span.level, tracing::Level::DEBUG);
    assert_call_fields(&span, &observed_at_debug::SCRIPT, "EVALSHA", 1);
}
