//! The main loop: messages from the client in order, each request answered,
//! and the diagnostics of the documents changed since their last check
//! published once no message is waiting (so a burst of keystrokes is
//! checked once, at its end).

use std::collections::{HashMap, HashSet};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use redis_script_analyzer::compose;
use redis_script_analyzer::servers::Servers;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::call_site::Callers;
use super::diagnostics::Checked;
use super::documents::{Document, Documents, path_of};
use super::includers::IncludeIndex;
use super::protocol::{
    AtPosition, CodeActionParams, DidChange, DidClose, DidOpen, Hover, Markdown,
    PublishDiagnostics, QUICKFIX, Uri,
};
use super::{actions, completion, diagnostics, hover};

/// The methods handled, by their LSP names.
mod method {
    pub(super) const INITIALIZE: &str = "initialize";
    pub(super) const SHUTDOWN: &str = "shutdown";
    pub(super) const EXIT: &str = "exit";
    pub(super) const DID_OPEN: &str = "textDocument/didOpen";
    pub(super) const DID_CHANGE: &str = "textDocument/didChange";
    pub(super) const DID_CLOSE: &str = "textDocument/didClose";
    pub(super) const HOVER: &str = "textDocument/hover";
    pub(super) const COMPLETION: &str = "textDocument/completion";
    pub(super) const SIGNATURE_HELP: &str = "textDocument/signatureHelp";
    pub(super) const CODE_ACTION: &str = "textDocument/codeAction";
    pub(super) const PUBLISH_DIAGNOSTICS: &str = "textDocument/publishDiagnostics";
    pub(super) const INITIALIZED: &str = "initialized";
    pub(super) const DID_CHANGE_WATCHED_FILES: &str = "workspace/didChangeWatchedFiles";
    pub(super) const REGISTER_CAPABILITY: &str = "client/registerCapability";
}

/// The files whose change on disk changes checks: the config file, by its
/// name (`redis-lua.toml`), wherever it is, and the Lua files (a script
/// that includes an open fragment, a fragment an open script includes).
const WATCHED_GLOBS: [&str; 2] = ["**/redis-lua.toml", "**/*.lua"];

/// Where the server is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Before `initialize`: requests are refused, notifications dropped.
    Starting,
    /// Serving.
    Running,
    /// After `shutdown`: only `exit` is expected.
    ShutDown,
}

/// A request's failure, as its response says it.
type Failure = (ErrorCode, String);

/// Serves `connection` until the client's `exit` (or until it closes the
/// connection); returns the exit status LSP asks for: 0 when `shutdown`
/// came first, 1 otherwise.
pub(crate) fn serve(connection: &Connection) -> i32 {
    let mut server = Server {
        connection,
        documents: Documents::default(),
        checked: HashMap::new(),
        stale: HashSet::new(),
        roots: Vec::new(),
        includes: None,
        watch_config: false,
        phase: Phase::Starting,
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => server.request(request),
            Message::Notification(notification) if notification.method == method::EXIT => {
                return if server.phase == Phase::ShutDown {
                    0
                } else {
                    1
                };
            }
            Message::Notification(notification) => server.notification(notification),
            // The answer to the server's one request (the file watchers)
            // needs nothing done.
            Message::Response(_) => {}
        }
        if server.phase == Phase::Running && connection.receiver.is_empty() {
            server.publish_stale();
        }
    }
    1
}

struct Server<'c> {
    connection: &'c Connection,
    documents: Documents,
    /// What the last check of each open document found.
    checked: HashMap<Uri, Checked>,
    /// The open documents changed (or whose includes changed) since then.
    stale: HashSet<Uri>,
    /// The workspace's folders, for the paths that messages show.
    roots: Vec<PathBuf>,
    /// Which of the workspace's files include which, built at the first
    /// check and kept up to date as documents change; built again when the
    /// client says files changed.
    includes: Option<IncludeIndex>,
    /// Whether the client registers file watchers when asked: then, once
    /// it is initialized, it is asked to watch the config files.
    watch_config: bool,
    phase: Phase,
}

impl Server<'_> {
    fn request(&mut self, request: Request) {
        let Request { id, method, params } = request;
        let result = match (self.phase, method.as_str()) {
            (Phase::Starting, method::INITIALIZE) => self.initialize(&params),
            (Phase::Starting, _) => Err((
                ErrorCode::ServerNotInitialized,
                "the server is not initialized yet".to_owned(),
            )),
            (Phase::ShutDown, _) => Err((
                ErrorCode::InvalidRequest,
                "the server is shut down".to_owned(),
            )),
            (Phase::Running, method::INITIALIZE) => Err((
                ErrorCode::InvalidRequest,
                "the server is already initialized".to_owned(),
            )),
            (Phase::Running, method::SHUTDOWN) => {
                self.phase = Phase::ShutDown;
                Ok(Value::Null)
            }
            (Phase::Running, method::HOVER) => self.guarded(params, Server::hover),
            (Phase::Running, method::COMPLETION) => self.guarded(params, Server::completion),
            (Phase::Running, method::SIGNATURE_HELP) => {
                self.guarded(params, Server::signature_help)
            }
            (Phase::Running, method::CODE_ACTION) => self.guarded(params, Server::code_action),
            (Phase::Running, other) => Err((
                ErrorCode::MethodNotFound,
                format!("the server does not handle `{other}`"),
            )),
        };
        let response = match result {
            Ok(value) => Response::new_ok(id, value),
            Err((code, message)) => Response::new_err(id, code as i32, message),
        };
        self.send(response.into());
    }

    /// Runs `handler` on the request's parameters: parameters that do not
    /// parse are the client's error; a panic is answered, not fatal.
    fn guarded<P: DeserializeOwned>(
        &mut self,
        params: Value,
        handler: fn(&mut Self, P) -> Result<Value, Failure>,
    ) -> Result<Value, Failure> {
        let params = serde_json::from_value(params)
            .map_err(|error| (ErrorCode::InvalidParams, error.to_string()))?;
        panic::catch_unwind(AssertUnwindSafe(|| handler(self, params))).unwrap_or_else(|_| {
            Err((
                ErrorCode::InternalError,
                "the server failed on this request (its standard error says why)".to_owned(),
            ))
        })
    }

    fn notification(&mut self, notification: Notification) {
        if self.phase != Phase::Running {
            return;
        }
        let Notification { method, params } = notification;
        let outcome = match method.as_str() {
            method::DID_OPEN => self.notified(params, Server::did_open),
            method::DID_CHANGE => self.notified(params, Server::did_change),
            method::DID_CLOSE => self.notified(params, Server::did_close),
            method::INITIALIZED => {
                self.watch_configs();
                Ok(())
            }
            method::DID_CHANGE_WATCHED_FILES => {
                self.notified(params, Server::did_change_watched_files)
            }
            // `$/cancelRequest`, `didSave`...: nothing to do.
            _ => Ok(()),
        };
        if let Err(why) = outcome {
            eprintln!("redis-lua lsp: `{method}` ignored: {why}");
        }
    }

    /// As [`Server::guarded`], for a notification, which has no answer.
    fn notified<P: DeserializeOwned>(
        &mut self,
        params: Value,
        handler: fn(&mut Self, P) -> Result<(), String>,
    ) -> Result<(), String> {
        let params = serde_json::from_value(params).map_err(|error| error.to_string())?;
        panic::catch_unwind(AssertUnwindSafe(|| handler(self, params)))
            .unwrap_or_else(|_| Err("the server failed on it".to_owned()))
    }

    fn initialize(&mut self, params: &Value) -> Result<Value, Failure> {
        self.roots = workspace_roots(params);
        self.watch_config = params["capabilities"]["workspace"]["didChangeWatchedFiles"]["dynamicRegistration"]
            == true;
        self.phase = Phase::Running;
        Ok(json!({
            "capabilities": capabilities(),
            "serverInfo": { "name": "redis-lua", "version": env!("CARGO_PKG_VERSION") },
        }))
    }

    /// Asks the client to tell of every change of a config or Lua file on
    /// disk, where it can: the one request the server sends (its answer is
    /// not needed).
    fn watch_configs(&self) {
        if !self.watch_config {
            return;
        }
        let watchers: Vec<Value> = WATCHED_GLOBS
            .iter()
            .map(|glob| json!({ "globPattern": glob }))
            .collect();
        let params = json!({ "registrations": [{
            "id": "redis-lua-files",
            "method": method::DID_CHANGE_WATCHED_FILES,
            "registerOptions": { "watchers": watchers },
        }]});
        self.send(
            Request::new(
                "redis-lua/watch-config".to_owned().into(),
                method::REGISTER_CAPABILITY.to_owned(),
                params,
            )
            .into(),
        );
    }

    /// Files the client watches changed on disk (a config file, or Lua
    /// files: a checkout, a file made outside the editor): which files
    /// include which is read again, and every open document is checked
    /// again (each reads its nearest config and its includes).
    fn did_change_watched_files(&mut self, params: Value) -> Result<(), String> {
        let changes = params["changes"]
            .as_array()
            .ok_or("no `changes` in the notification")?;
        if !changes.is_empty() {
            self.includes = None;
            self.stale.extend(self.documents.uris().cloned());
        }
        Ok(())
    }

    fn did_open(&mut self, params: DidOpen) -> Result<(), String> {
        let document = params.text_document;
        self.documents
            .open(document.uri.clone(), document.text, document.version);
        self.touch(&document.uri);
        Ok(())
    }

    fn did_change(&mut self, params: DidChange) -> Result<(), String> {
        let uri = params.text_document.uri;
        let document = self
            .documents
            .get_mut(&uri)
            .ok_or_else(|| format!("`{}` is not open", uri.as_str()))?;
        document.apply(params.content_changes, params.text_document.version);
        self.touch(&uri);
        Ok(())
    }

    fn did_close(&mut self, params: DidClose) -> Result<(), String> {
        let uri = params.text_document.uri;
        self.documents.close(&uri);
        self.checked.remove(&uri);
        self.touch(&uri);
        self.stale.remove(&uri);
        self.send_diagnostics(PublishDiagnostics {
            uri,
            diagnostics: Vec::new(),
            version: None,
        });
        Ok(())
    }

    /// Marks for a new check the document `uri`, and the documents that
    /// include its file, whose text (or, once closed, the file's) they read;
    /// and reads its includes again for the index.
    fn touch(&mut self, uri: &Uri) {
        self.stale.insert(uri.clone());
        let Some(path) = path_of(uri).map(|path| compose::normalize(&path)) else {
            return;
        };
        if let Some(includes) = &mut self.includes
            && let Ok(source) = self.documents.read(&path)
        {
            includes.update(&path, &source);
        }
        let includers = self
            .checked
            .iter()
            .filter(|(_, checked)| checked.included.contains(&path))
            .map(|(includer, _)| includer.clone());
        self.stale.extend(includers);
    }

    /// The servers the document `uri` is checked for.
    fn servers(&self, uri: &Uri) -> Servers {
        self.checked
            .get(uri)
            .map_or(Servers::ALL, |checked| checked.servers)
    }

    /// The names that run a command in `document`: `redis.call` and its
    /// kin, and the aliases of the document and, for a fragment, of the
    /// scripts that include it (BullMQ's `local rcall = redis.call`).
    fn callers(&self, document: &Document) -> Callers {
        let includers: Vec<String> = match (&self.includes, &document.path) {
            (Some(includes), Some(path)) => includes
                .scripts_including(path)
                .iter()
                .filter_map(|script| self.documents.read(script).ok())
                .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
                .collect(),
            _ => Vec::new(),
        };
        Callers::of(
            std::iter::once(document.text.as_str()).chain(includers.iter().map(String::as_str)),
        )
    }

    fn hover(&mut self, at: AtPosition) -> Result<Value, Failure> {
        let Some(document) = self.documents.get(&at.text_document.uri) else {
            return Ok(Value::Null);
        };
        let offset = document.lines.offset(&document.text, at.position);
        let servers = self.servers(&at.text_document.uri);
        let callers = self.callers(document);
        let Some((bytes, text)) = hover::hover(&document.text, offset, servers, &callers) else {
            return Ok(Value::Null);
        };
        json(Hover {
            contents: Markdown::new(text),
            range: document.lines.range(&document.text, bytes.start, bytes.end),
        })
    }

    fn signature_help(&mut self, at: AtPosition) -> Result<Value, Failure> {
        let Some(document) = self.documents.get(&at.text_document.uri) else {
            return Ok(Value::Null);
        };
        let offset = document.lines.offset(&document.text, at.position);
        let servers = self.servers(&at.text_document.uri);
        let callers = self.callers(document);
        let Some(signature) = hover::signature(&document.text, offset, servers, &callers) else {
            return Ok(Value::Null);
        };
        // The label is ASCII: its bytes are its UTF-16 units.
        let parameters: Vec<Value> = signature
            .parameters
            .iter()
            .map(|range| json!({ "label": [range.start, range.end] }))
            .collect();
        let mut help = json!({
            "signatures": [{ "label": signature.label, "parameters": parameters }],
            "activeSignature": 0,
        });
        if let Some(active) = signature.active {
            help["activeParameter"] = json!(active);
        }
        Ok(help)
    }

    fn completion(&mut self, at: AtPosition) -> Result<Value, Failure> {
        let Some(document) = self.documents.get(&at.text_document.uri) else {
            return Ok(Value::Null);
        };
        let offset = document.lines.offset(&document.text, at.position);
        let servers = self.servers(&at.text_document.uri);
        let callers = self.callers(document);
        let items: Vec<_> = completion::candidates(&document.text, offset, servers, &callers)
            .into_iter()
            .map(|candidate| {
                let range = document.lines.range(
                    &document.text,
                    candidate.replaces.start,
                    candidate.replaces.end,
                );
                completion::item(candidate, range)
            })
            .collect();
        if items.is_empty() {
            return Ok(Value::Null);
        }
        json(items)
    }

    fn code_action(&mut self, params: CodeActionParams) -> Result<Value, Failure> {
        // Kinds are hierarchical: `quickfix` is wanted by `quickfix` (or `""`).
        let wanted = params
            .context
            .only
            .as_ref()
            .is_none_or(|only| only.iter().any(|kind| QUICKFIX.starts_with(kind.as_str())));
        let uri = params.text_document.uri;
        if !wanted || self.documents.get(&uri).is_none() {
            return Ok(Value::Array(Vec::new()));
        }
        // The fixes are of the text as it is now.
        if self.stale.contains(&uri) {
            self.publish(&uri);
        }
        let (Some(document), Some(checked)) = (self.documents.get(&uri), self.checked.get(&uri))
        else {
            return Ok(Value::Array(Vec::new()));
        };
        let start = document.lines.offset(&document.text, params.range.start);
        let end = document.lines.offset(&document.text, params.range.end);
        json(actions::code_actions(
            &uri,
            document,
            &checked.published,
            start,
            end,
        ))
    }

    /// Checks and publishes every document changed since its last check.
    fn publish_stale(&mut self) {
        let stale: Vec<Uri> = self.stale.iter().cloned().collect();
        for uri in stale {
            self.publish(&uri);
        }
    }

    fn publish(&mut self, uri: &Uri) {
        self.stale.remove(uri);
        let Some(document) = self.documents.get(uri) else {
            return;
        };
        let version = document.version;
        let includes = self
            .includes
            .get_or_insert_with(|| IncludeIndex::build(&self.roots, &self.documents));
        let checked = panic::catch_unwind(AssertUnwindSafe(|| {
            diagnostics::check(document, uri, &self.documents, &self.roots, includes)
        }))
        .unwrap_or_else(|_| {
            eprintln!("redis-lua lsp: the check of {} failed", uri.as_str());
            Checked::default()
        });
        let published = checked
            .published
            .iter()
            .map(|published| published.diagnostic.clone())
            .collect();
        self.checked.insert(uri.clone(), checked);
        self.send_diagnostics(PublishDiagnostics {
            uri: uri.clone(),
            diagnostics: published,
            version: Some(version),
        });
    }

    fn send_diagnostics(&self, params: PublishDiagnostics) {
        match serde_json::to_value(params) {
            Ok(params) => self.send(
                Notification {
                    method: method::PUBLISH_DIAGNOSTICS.to_owned(),
                    params,
                }
                .into(),
            ),
            Err(error) => eprintln!("redis-lua lsp: diagnostics not sent: {error}"),
        }
    }

    fn send(&self, message: Message) {
        if self.connection.sender.send(message).is_err() {
            eprintln!("redis-lua lsp: the client's end is closed");
        }
    }
}

/// What the server does, and no more: full or incremental changes, hover,
/// completion and signature help in a call's strings, quick fixes;
/// positions in UTF-16.
fn capabilities() -> Value {
    json!({
        "positionEncoding": "utf-16",
        // 2: incremental.
        "textDocumentSync": { "openClose": true, "change": 2 },
        "hoverProvider": true,
        "completionProvider": { "triggerCharacters": ["'", "\""] },
        "signatureHelpProvider": { "triggerCharacters": ["'", "\""] },
        "codeActionProvider": { "codeActionKinds": [QUICKFIX] },
    })
}

/// The workspace's folders, from `initialize`'s `workspaceFolders`, else its
/// `rootUri`; read leniently, as they change only how paths are named.
fn workspace_roots(params: &Value) -> Vec<PathBuf> {
    let path = |uri: &Value| path_of(&Uri(uri.as_str()?.to_owned()));
    let folders: Vec<PathBuf> = params["workspaceFolders"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|folder| path(&folder["uri"]))
        .collect();
    if folders.is_empty() {
        path(&params["rootUri"]).into_iter().collect()
    } else {
        folders
    }
}

fn json(value: impl Serialize) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(|error| (ErrorCode::InternalError, error.to_string()))
}
