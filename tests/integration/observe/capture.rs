//! What an application's subscriber and recorder would receive, captured on
//! the test's own thread: a tracing layer that keeps every span with its
//! fields and events, and a metrics recorder that keeps every counter and
//! histogram by name and labels.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use metrics::{Counter, Gauge, Histogram, HistogramFn, Key, KeyName, Metadata, SharedString, Unit};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Subscriber};
use tracing_subscriber::layer::{Context, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// Runs `f` with a capturing subscriber and recorder as this thread's
/// defaults (an async test runs its runtime inside `f`, on this thread),
/// and returns what they received.
pub fn capture<R>(f: impl FnOnce() -> R) -> (R, Spans, Metrics) {
    let spans = Spans::default();
    let metrics = Metrics::default();
    let subscriber = tracing_subscriber::registry().with(spans.clone());
    let result =
        tracing::subscriber::with_default(subscriber, || metrics::with_local_recorder(&metrics, f));
    (result, spans, metrics)
}

/// One span as a subscriber saw it.
#[derive(Debug, Clone)]
pub struct SpanRecord {
    pub name: &'static str,
    pub level: tracing::Level,
    /// Every field with a value, as text, from creation and later records.
    pub fields: BTreeMap<String, String>,
    /// The fields recorded as integers (the others as text).
    pub integers: BTreeSet<String>,
    /// The events inside the span, each as its fields (`message` included).
    pub events: Vec<BTreeMap<String, String>>,
}

impl SpanRecord {
    /// The value of `field`, failing the test if the span lacks it.
    pub fn field(&self, field: &str) -> &str {
        match self.fields.get(field) {
            Some(value) => value,
            None => panic!(
                "span {} has no field {field}: {:#?}",
                self.name, self.fields
            ),
        }
    }

    pub fn has(&self, field: &str) -> bool {
        self.fields.contains_key(field)
    }

    /// The value of `field`, which must have been recorded as an integer.
    pub fn integer(&self, field: &str) -> &str {
        assert!(
            self.integers.contains(field),
            "{field} is not an integer in {self:#?}"
        );
        self.field(field)
    }

    /// The value of `field`, which must have been recorded as text.
    pub fn text(&self, field: &str) -> &str {
        assert!(
            !self.integers.contains(field),
            "{field} is an integer in {self:#?}"
        );
        self.field(field)
    }
}

/// The spans captured, in the order they were opened.
#[derive(Clone, Default)]
pub struct Spans(Arc<Mutex<Vec<SpanRecord>>>);

impl Spans {
    pub fn all(&self) -> Vec<SpanRecord> {
        self.0.lock().unwrap().clone()
    }

    /// The one span named `name`, failing the test unless there is exactly one.
    pub fn only(&self, name: &str) -> SpanRecord {
        let all = self.all();
        let matching: Vec<_> = all.iter().filter(|span| span.name == name).collect();
        assert_eq!(matching.len(), 1, "spans named {name}: {all:#?}");
        matching[0].clone()
    }
}

/// Where a span's record sits in [`Spans`], kept in the span's extensions.
struct Index(usize);

impl<S: Subscriber + for<'a> LookupSpan<'a>> tracing_subscriber::Layer<S> for Spans {
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut fields = FieldText::default();
        attrs.record(&mut fields);
        let mut spans = self.0.lock().unwrap();
        spans.push(SpanRecord {
            name: attrs.metadata().name(),
            level: *attrs.metadata().level(),
            fields: fields.values,
            integers: fields.integers,
            events: Vec::new(),
        });
        let span = ctx.span(id).expect("a new span is registered");
        span.extensions_mut().insert(Index(spans.len() - 1));
    }

    fn on_record(&self, id: &Id, values: &Record<'_>, ctx: Context<'_, S>) {
        let span = ctx.span(id).expect("a recorded span is registered");
        let extensions = span.extensions();
        let Index(index) = extensions.get::<Index>().expect("captured span");
        let mut fields = FieldText::default();
        values.record(&mut fields);
        let record = &mut self.0.lock().unwrap()[*index];
        record.fields.extend(fields.values);
        record.integers.extend(fields.integers);
    }

    fn on_event(&self, event: &Event<'_>, ctx: Context<'_, S>) {
        let mut fields = FieldText::default();
        event.record(&mut fields);
        let span = ctx
            .event_span(event)
            .expect("every event here is inside a span");
        let extensions = span.extensions();
        let Index(index) = extensions.get::<Index>().expect("captured span");
        self.0.lock().unwrap()[*index].events.push(fields.values);
    }
}

/// Field values as text: strings as they are, numbers in decimal (and
/// noted as integers), anything else (`%display` values) through its
/// formatting.
#[derive(Default)]
struct FieldText {
    values: BTreeMap<String, String>,
    integers: BTreeSet<String>,
}

impl FieldText {
    fn integer(&mut self, field: &Field, value: impl ToString) {
        self.values
            .insert(field.name().to_owned(), value.to_string());
        self.integers.insert(field.name().to_owned());
    }
}

impl Visit for FieldText {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.values
            .insert(field.name().to_owned(), value.to_owned());
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.integer(field, value);
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.integer(field, value);
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.values
            .insert(field.name().to_owned(), format!("{value:?}"));
    }
}

/// Every counter and histogram recorded, by name and labels written as
/// `name{label=value,...}` (labels sorted; `name` alone without labels).
#[derive(Clone, Default)]
pub struct Metrics {
    counters: Arc<Mutex<BTreeMap<String, Arc<AtomicU64>>>>,
    histograms: Arc<Mutex<BTreeMap<String, Arc<Samples>>>>,
    /// The unit each described metric was given, by name.
    units: Arc<Mutex<BTreeMap<String, Option<Unit>>>>,
}

impl Metrics {
    /// A counter's value; 0 if never registered.
    pub fn counter(&self, key: &str) -> u64 {
        let counters = self.counters.lock().unwrap();
        counters
            .get(key)
            .map_or(0, |count| count.load(Ordering::Relaxed))
    }

    /// The histograms named `name` whose labels include every one of
    /// `labels`, each as its key text and how many values it received.
    pub fn histograms(&self, name: &str, labels: &[(&str, &str)]) -> Vec<(String, usize)> {
        let histograms = self.histograms.lock().unwrap();
        histograms
            .iter()
            .filter(|(key, _)| {
                let (key_name, key_labels) = split_key(key);
                key_name == name
                    && labels.iter().all(|(label, value)| {
                        key_labels.contains(&(label.to_string(), value.to_string()))
                    })
            })
            .map(|(key, samples)| (key.clone(), samples.0.lock().unwrap().len()))
            .collect()
    }

    /// The unit `name` was described with; `None` if not described.
    pub fn unit(&self, name: &str) -> Option<Unit> {
        self.units.lock().unwrap().get(name).copied().flatten()
    }

    /// Every counter and its value, for a failing assertion's message.
    pub fn counters(&self) -> BTreeMap<String, u64> {
        let counters = self.counters.lock().unwrap();
        counters
            .iter()
            .map(|(key, count)| (key.clone(), count.load(Ordering::Relaxed)))
            .collect()
    }
}

/// `name{a=1,b=2}`, the form [`Metrics`] keys by.
fn key_text(key: &Key) -> String {
    let mut labels: Vec<String> = key
        .labels()
        .map(|label| format!("{}={}", label.key(), label.value()))
        .collect();
    if labels.is_empty() {
        return key.name().to_owned();
    }
    labels.sort();
    format!("{}{{{}}}", key.name(), labels.join(","))
}

/// A key text's name and labels, as [`key_text`] wrote them (no value here
/// holds a comma).
pub fn split_key(key: &str) -> (&str, Vec<(String, String)>) {
    let Some((name, labels)) = key.split_once('{') else {
        return (key, Vec::new());
    };
    let labels = labels
        .trim_end_matches('}')
        .split(',')
        .filter_map(|label| label.split_once('='))
        .map(|(label, value)| (label.to_owned(), value.to_owned()))
        .collect();
    (name, labels)
}

#[derive(Default)]
struct Samples(Mutex<Vec<f64>>);

impl HistogramFn for Samples {
    fn record(&self, value: f64) {
        self.0.lock().unwrap().push(value);
    }
}

impl metrics::Recorder for Metrics {
    fn describe_counter(&self, name: KeyName, unit: Option<Unit>, _: SharedString) {
        let mut units = self.units.lock().unwrap();
        units.insert(name.as_str().to_owned(), unit);
    }

    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}

    fn describe_histogram(&self, name: KeyName, unit: Option<Unit>, _: SharedString) {
        let mut units = self.units.lock().unwrap();
        units.insert(name.as_str().to_owned(), unit);
    }

    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        let mut counters = self.counters.lock().unwrap();
        Counter::from_arc(counters.entry(key_text(key)).or_default().clone())
    }

    fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::noop()
    }

    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        let mut histograms = self.histograms.lock().unwrap();
        Histogram::from_arc(histograms.entry(key_text(key)).or_default().clone())
    }
}
