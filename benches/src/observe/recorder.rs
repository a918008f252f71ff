//! A metrics recorder that does on every call what an exporter's registry
//! does, and no more: finds the metric by its key (name and labels) in a
//! map, then adds to atomics: a counter, or a histogram's bucket and sum.
//! Written here rather than taken from metrics-util, to keep the harness's
//! dependencies to the facade the runtime already uses.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, RwLock};

use metrics::{
    Counter, CounterFn, Gauge, Histogram, HistogramFn, Key, KeyName, Metadata, SharedString, Unit,
};

/// Histogram buckets with upper bounds of 1 µs, 2 µs, 4 µs, ... 2^20 µs
/// (about 1 s), and one for everything longer.
const BUCKETS: usize = 22;

#[derive(Default)]
pub struct Recorder {
    counters: RwLock<HashMap<Key, Arc<Count>>>,
    histograms: RwLock<HashMap<Key, Arc<Buckets>>>,
}

#[derive(Default)]
struct Count(AtomicU64);

#[derive(Default)]
struct Buckets {
    counts: [AtomicU64; BUCKETS],
    sum_seconds_e9: AtomicU64,
}

impl CounterFn for Count {
    fn increment(&self, value: u64) {
        self.0.fetch_add(value, Relaxed);
    }

    fn absolute(&self, value: u64) {
        self.0.fetch_max(value, Relaxed);
    }
}

impl HistogramFn for Buckets {
    fn record(&self, seconds: f64) {
        let micros = seconds * 1e6;
        let bucket = if micros <= 1.0 {
            0
        } else {
            (micros.log2().ceil() as usize).min(BUCKETS - 1)
        };
        self.counts[bucket].fetch_add(1, Relaxed);
        self.sum_seconds_e9
            .fetch_add((seconds * 1e9) as u64, Relaxed);
    }
}

impl Recorder {
    /// Values recorded into histograms, over every key: one per call.
    pub fn calls(&self) -> u64 {
        let histograms = self.histograms.read().expect("no panic while held");
        histograms
            .values()
            .flat_map(|buckets| &buckets.counts)
            .map(|count| count.load(Relaxed))
            .sum()
    }
}

/// The handle of `key` in `map`, made on its first use.
fn handle<T: Default>(map: &RwLock<HashMap<Key, Arc<T>>>, key: &Key) -> Arc<T> {
    if let Some(found) = map.read().expect("no panic while held").get(key) {
        return Arc::clone(found);
    }
    let mut map = map.write().expect("no panic while held");
    Arc::clone(map.entry(key.clone()).or_default())
}

impl metrics::Recorder for Recorder {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}

    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}

    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}

    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        Counter::from_arc(handle(&self.counters, key))
    }

    fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::noop()
    }

    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::from_arc(handle(&self.histograms, key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_buckets_add_up_by_key() {
        let recorder = Recorder::default();
        metrics::with_local_recorder(&recorder, || {
            metrics::counter!("calls", "script" => "a").increment(2);
            metrics::counter!("calls", "script" => "a").increment(1);
            metrics::histogram!("seconds", "script" => "a").record(0.000_040);
            metrics::histogram!("seconds", "script" => "b").record(5.0);
        });
        assert_eq!(recorder.calls(), 2);
        let counters = recorder.counters.read().unwrap();
        assert_eq!(counters.len(), 1);
        assert_eq!(counters.values().next().unwrap().0.load(Relaxed), 3);
        let histograms = recorder.histograms.read().unwrap();
        let bucket_of = |script: &'static str| {
            let key = Key::from_parts("seconds", &[("script", script)]);
            let buckets = &histograms[&key];
            buckets.counts.iter().position(|c| c.load(Relaxed) == 1)
        };
        // 40 µs is at most 64 µs (2^6); 5 s is beyond the last bound.
        assert_eq!(bucket_of("a"), Some(6));
        assert_eq!(bucket_of("b"), Some(BUCKETS - 1));
    }
}
