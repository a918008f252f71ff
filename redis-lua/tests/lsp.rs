//! `redis-lua lsp` driven as an editor drives it: the built binary over
//! pipes, LSP messages framed with `Content-Length`, from `initialize` to
//! `exit`. Every wait for the server is bounded, so a server that hangs
//! fails the test instead of hanging it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long to wait for a message before the server is taken for hung:
/// far longer than any check here takes.
const PATIENCE: Duration = Duration::from_secs(60);

/// The client's end of a running server.
struct Client {
    server: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Everything the server writes to stderr, once it exits.
    log: JoinHandle<String>,
    /// Notifications read while waiting for something else.
    pending: Vec<Value>,
    next_id: i64,
}

impl Client {
    /// Starts `redis-lua lsp`.
    fn start() -> Client {
        let mut server = Command::new(env!("CARGO_BIN_EXE_redis-lua"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut stderr = server.stderr.take().expect("its stderr");
        let log = std::thread::spawn(move || {
            let mut log = String::new();
            let _ = stderr.read_to_string(&mut log);
            log
        });
        let stdin = server.stdin.take().expect("its stdin");
        let stdout = server.stdout.take().expect("its stdout");
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Client {
            server,
            stdin,
            messages,
            log,
            pending: Vec::new(),
            next_id: 1,
        }
    }

    /// `initialize` with `folder` as the workspace, then `initialized`;
    /// returns the server's answer.
    fn initialize(&mut self, folder: &Path) -> Value {
        self.initialize_with(folder, json!({}))
    }

    /// [`Client::initialize`], the client saying it has `capabilities`.
    fn initialize_with(&mut self, folder: &Path, capabilities: Value) -> Value {
        let result = self.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(folder),
                "workspaceFolders": [{ "uri": uri(folder), "name": "project" }],
                "capabilities": capabilities,
            }),
        );
        self.notify("initialized", json!({}));
        result.expect("initialize succeeds")
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len())
            .and_then(|()| self.stdin.flush())
            .expect("the server reads its stdin");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request; returns its result, or its error.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                return match message.get("error") {
                    Some(error) => Err(error.clone()),
                    None => Ok(message["result"].clone()),
                };
            }
            self.pending.push(message);
        }
    }

    fn receive(&mut self) -> Value {
        self.messages
            .recv_timeout(PATIENCE)
            .expect("the server answers in time")
    }

    /// The next diagnostics published for `document`.
    fn diagnostics(&mut self, document: &Path) -> Vec<Value> {
        let uri = uri(document);
        let is_them = |message: &Value| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri.as_str()
        };
        let message = match self.pending.iter().position(is_them) {
            Some(at) => self.pending.remove(at),
            None => loop {
                let message = self.receive();
                if is_them(&message) {
                    break message;
                }
                self.pending.push(message);
            },
        };
        message["params"]["diagnostics"]
            .as_array()
            .expect("a list of diagnostics")
            .clone()
    }

    fn open(&mut self, document: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": {
                "uri": uri(document), "languageId": "lua", "version": 1, "text": text,
            }}),
        );
    }

    fn change(&mut self, document: &Path, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri(document), "version": version },
                "contentChanges": changes,
            }),
        );
    }

    /// A request about the place `line`:`character` of `document`.
    fn at(&mut self, method: &str, document: &Path, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({
                "textDocument": { "uri": uri(document) },
                "position": { "line": line, "character": character },
            }),
        )
        .expect("the request succeeds")
    }

    /// `shutdown`, `exit`, and the server's exit status and log.
    fn stop(mut self) -> (i32, String) {
        assert_eq!(self.request("shutdown", Value::Null), Ok(Value::Null));
        self.notify("exit", Value::Null);
        self.wait()
    }

    /// The server's exit status and log, once it exits (killed if it does not).
    fn wait(mut self) -> (i32, String) {
        drop(self.stdin);
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.server.try_wait().expect("the server's status") {
                let log = self.log.join().expect("the log");
                return (status.code().expect("an exit code"), log);
            }
            if Instant::now() > deadline {
                let _ = self.server.kill();
                panic!("the server did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// One framed message, or `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// A fresh project folder `name`, with an empty `redis-lua.toml` so that
/// no config above it applies.
fn project(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let dir = dir.canonicalize().expect("a real path");
    write(&dir, "redis-lua.toml", "");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
    std::fs::write(&path, text).expect("write");
    path
}

/// `redis-lua check --format json FILE` run in the file's folder: its
/// findings' rules, lines and messages.
fn checked_by_the_cli(file: &Path) -> Vec<(String, u64, String)> {
    let output = Command::new(env!("CARGO_BIN_EXE_redis-lua"))
        .args(["check", "--format", "json"])
        .arg(file.file_name().expect("a file name"))
        .current_dir(file.parent().expect("a folder"))
        .output()
        .expect("the binary runs");
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|finding| {
            let message = match finding["note"].as_str() {
                Some(note) => format!("{}\nnote: {note}", finding["message"].as_str().unwrap()),
                None => finding["message"].as_str().unwrap().to_owned(),
            };
            (
                finding["rule"].as_str().unwrap().to_owned(),
                finding["line"].as_u64().unwrap(),
                message,
            )
        })
        .collect()
}

/// Each diagnostic's code, line (1-based, as the CLI counts) and message.
fn as_the_cli_says(diagnostics: &[Value]) -> Vec<(String, u64, String)> {
    diagnostics
        .iter()
        .map(|diagnostic| {
            (
                diagnostic["code"].as_str().unwrap().to_owned(),
                diagnostic["range"]["start"]["line"].as_u64().unwrap() + 1,
                diagnostic["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({
        "start": { "line": start.0, "character": start.1 },
        "end": { "line": end.0, "character": end.1 },
    })
}

/// Wrong, fixed, wrong again: on a line with characters of one and two
/// UTF-16 units before the mistake.
const MISTAKE: &str = "-- é😀 un verrou\nlocal v = 'é😀' return redis.call('GETT', KEYS[1])\n";

#[test]
fn an_editing_session() {
    let dir = project("lsp-session");
    let script = write(&dir, "lock.lua", MISTAKE);
    let mut client = Client::start();

    let initialized = client.initialize(&dir);
    assert_eq!(
        initialized["capabilities"],
        json!({
            "positionEncoding": "utf-16",
            "textDocumentSync": { "openClose": true, "change": 2 },
            "hoverProvider": true,
            "completionProvider": { "triggerCharacters": ["'", "\""] },
            "signatureHelpProvider": { "triggerCharacters": ["'", "\""] },
            "codeActionProvider": { "codeActionKinds": ["quickfix"] },
        })
    );
    assert_eq!(initialized["serverInfo"]["name"], "redis-lua");

    // The mistake, where it is: `'GETT'` starts at the 34th character, at
    // UTF-16 unit 34 counted from 0 (the emoji is two).
    client.open(&script, MISTAKE);
    let diagnostics = client.diagnostics(&script);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let mistake = &diagnostics[0];
    assert_eq!(mistake["range"], range((1, 34), (1, 40)));
    assert_eq!(mistake["code"], "unknown_commands");
    assert_eq!(mistake["severity"], 1);
    assert_eq!(mistake["source"], "redis-lua");
    let message = mistake["message"].as_str().unwrap();
    assert!(
        message.starts_with("`gett` is not a Redis command") && message.contains("did you mean"),
        "{message}"
    );
    // What the command line says of the same file.
    assert_eq!(as_the_cli_says(&diagnostics), checked_by_the_cli(&script));

    // Its quick fixes: the certain one first (the suggestion, preferred),
    // then a comment above the line that allows the rule.
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri(&script) },
                "range": range((1, 36), (1, 36)),
                "context": { "diagnostics": [mistake] },
            }),
        )
        .expect("code actions");
    assert_eq!(actions.as_array().map(Vec::len), Some(2), "{actions}");
    for action in actions.as_array().unwrap() {
        assert_eq!(action["kind"], "quickfix");
        assert_eq!(action["diagnostics"][0]["code"], "unknown_commands");
    }
    assert_eq!(actions[0]["title"], "replace `GETT` with `GET`");
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(
        actions[0]["edit"]["changes"][uri(&script)],
        json!([{ "range": range((1, 35), (1, 39)), "newText": "GET" }])
    );
    assert_eq!(actions[1]["isPreferred"], false);
    assert_eq!(
        actions[1]["edit"]["changes"][uri(&script)],
        json!([{
            "range": range((1, 0), (1, 0)),
            "newText": "-- redis-lua: allow(unknown_commands)\n",
        }])
    );

    // The editor applies the preferred fix: an incremental change, `GETT`
    // becomes `GET`, as its edit says.
    client.change(
        &script,
        2,
        json!([{ "range": range((1, 35), (1, 39)), "text": "GET" }]),
    );
    assert_eq!(client.diagnostics(&script), Vec::<Value>::new());

    // Hover on the command.
    let hover = client.at("textDocument/hover", &script, 1, 37);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert!(shown.starts_with("**GET**"), "{shown}");
    assert!(shown.contains("arguments: 1 (arity 2)"), "{shown}");
    assert!(shown.contains("keys: argument 1"), "{shown}");
    assert!(shown.contains("`readonly`"), "{shown}");
    assert!(shown.contains("Redis 7.0 (7.0.15)"), "{shown}");
    assert!(shown.contains("Valkey 9.1"), "{shown}");
    assert!(shown.contains("a string, or nil"), "{shown}");
    assert_eq!(hover["range"], range((1, 35), (1, 38)));

    // Broken another way, by a change of the whole text.
    let broken = MISTAKE.replace("'GETT', KEYS[1]", "'GET', KEYS[1], v");
    client.change(&script, 3, json!([{ "text": broken }]));
    let diagnostics = client.diagnostics(&script);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "command_arity");
    assert_eq!(diagnostics[0]["range"], range((1, 34), (1, 39)));
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .starts_with("`get` takes exactly 1 argument(s)"),
        "{}",
        diagnostics[0]["message"]
    );

    // Completion in the name's string: every command, each replacing what
    // is typed of the name so far.
    let items = client.at("textDocument/completion", &script, 1, 35);
    let commands = labels(&items);
    for command in ["GET", "SET", "HSET", "CLIENT", "EVALSHA"] {
        assert!(
            commands.contains(&command.to_owned()),
            "{command}: {commands:?}"
        );
    }
    let get = items
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["label"] == "GET")
        .unwrap();
    assert_eq!(
        get["textEdit"],
        json!({ "range": range((1, 35), (1, 35)), "newText": "GET" })
    );
    assert!(get["detail"].as_str().unwrap().contains("arity 2"), "{get}");
    // Outside a call's strings: nothing.
    assert_eq!(
        client.at("textDocument/completion", &script, 1, 3),
        Value::Null
    );

    // A container's subcommands, in the argument after its name.
    let options = dir.join("options.lua");
    client.open(&options, "return redis.call('client', '')\n");
    let items = client.at("textDocument/completion", &options, 0, 29);
    let subcommands = labels(&items);
    for sub in ["LIST", "KILL", "NO-EVICT"] {
        assert!(
            subcommands.contains(&sub.to_owned()),
            "{sub}: {subcommands:?}"
        );
    }
    client.diagnostics(&options);

    // In a later argument, the words of the command's arguments that every
    // server takes, in upper case as documented, with what each is.
    let words = dir.join("words.lua");
    let words_text = "return redis.call('SET', KEYS[1], ARGV[1], '')\n";
    client.open(&words, words_text);
    let cursor = words_text.find("'')").unwrap() as u32 + 1;
    let items = client.at("textDocument/completion", &words, 0, cursor);
    let offered = labels(&items);
    for word in ["NX", "XX", "GET", "EX", "PXAT", "KEEPTTL"] {
        assert!(offered.contains(&word.to_owned()), "{word}: {offered:?}");
    }
    let item = |label: &str| {
        items
            .as_array()
            .unwrap()
            .iter()
            .find(|item| item["label"] == label)
            .unwrap()
            .clone()
    };
    let nx = item("NX");
    assert_eq!(nx["detail"], "flag; since Redis 2.6.12, Valkey 2.6.12");
    assert_eq!(
        nx["textEdit"],
        json!({ "range": range((0, cursor), (0, cursor)), "newText": "NX" })
    );
    assert!(
        item("EX")["detail"]
            .as_str()
            .unwrap()
            .starts_with("takes a value: integer;"),
        "{}",
        item("EX")
    );
    // Hover on one that is written.
    client.change(
        &words,
        2,
        json!([{ "text": words_text.replace("''", "'keepttl'") }]),
    );
    let hover = client.at("textDocument/hover", &words, 0, cursor + 2);
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.starts_with("**KEEPTTL** (`SET`)"), "{shown}");
    assert!(
        shown.contains("Since Redis 6.0.0, Valkey 6.0.0."),
        "{shown}"
    );

    // Hover on a value: the argument the grammar takes it for.
    let value = dir.join("value.lua");
    let value_text = "return redis.call('SET', KEYS[1], ARGV[1], 'EX', '10')\n";
    client.open(&value, value_text);
    let cursor = value_text.find("10'").unwrap() as u32 + 1;
    let hover = client.at("textDocument/hover", &value, 0, cursor);
    assert_eq!(
        hover["contents"]["value"],
        "**seconds** (`SET`): an integer, after `EX`."
    );
    // Signature help there: SET's grammar, the expiration its argument.
    let help = client.at("textDocument/signatureHelp", &value, 0, cursor);
    let label = help["signatures"][0]["label"].as_str().unwrap().to_owned();
    assert!(
        label.starts_with("SET key value [NX | XX] [GET] [EX seconds"),
        "{label}"
    );
    let active = help["activeParameter"].as_u64().unwrap() as usize;
    let bounds = &help["signatures"][0]["parameters"][active]["label"];
    let (start, end) = (
        bounds[0].as_u64().unwrap() as usize,
        bounds[1].as_u64().unwrap() as usize,
    );
    assert!(
        label[start..end].starts_with("[EX seconds | PX milliseconds"),
        "{help}"
    );
    client.diagnostics(&value);

    // Only the words the grammar takes where the string stands: none where
    // a value comes (after `EX`, or the key), and not `XX` after `NX`.
    for (name, text, expected) in [
        (
            "after_ex.lua",
            "return redis.call('SET', KEYS[1], ARGV[1], 'EX', '')\n",
            None,
        ),
        ("key.lua", "return redis.call('SET', '')\n", None),
        (
            "after_nx.lua",
            "return redis.call('set', KEYS[1], ARGV[1], 'nx', '')\n",
            Some("GET"),
        ),
    ] {
        let document = dir.join(name);
        client.open(&document, text);
        let cursor = text.find("'')").unwrap() as u32 + 1;
        let offered = labels(&client.at("textDocument/completion", &document, 0, cursor));
        match expected {
            None => assert_eq!(offered, Vec::<String>::new(), "{text}"),
            Some(word) => {
                assert!(offered.contains(&word.to_owned()), "{text}: {offered:?}");
                assert!(!offered.contains(&"XX".to_owned()), "{text}: {offered:?}");
            }
        }
        client.diagnostics(&document);
    }

    // After a container's subcommand: the subcommand's words.
    let kill = dir.join("kill.lua");
    let kill_text = "return redis.call('CLIENT', 'KILL', 'SK')\n";
    client.open(&kill, kill_text);
    let cursor = kill_text.find("SK'").unwrap() as u32 + 2;
    let items = client.at("textDocument/completion", &kill, 0, cursor);
    assert_eq!(labels(&items), ["SKIPME"]);
    assert_eq!(
        items[0]["textEdit"]["range"],
        range((0, cursor - 2), (0, cursor))
    );
    client.diagnostics(&words);
    client.diagnostics(&kill);

    // Closed: its diagnostics are cleared.
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri(&script) } }),
    );
    assert_eq!(client.diagnostics(&script), Vec::<Value>::new());

    // A method the server does not have, and parameters that do not parse.
    let unknown = client.request("textDocument/rename", json!({}));
    assert_eq!(unknown.unwrap_err()["code"], -32601);
    let malformed = client.request("textDocument/hover", json!({ "textDocument": 3 }));
    assert_eq!(malformed.unwrap_err()["code"], -32602);
    client.notify("textDocument/didChange", json!("nonsense"));

    let (status, log) = client.stop();
    assert_eq!(status, 0, "{log}");
    assert!(
        log.contains("`textDocument/didChange` ignored: invalid type"),
        "{log}"
    );
}

/// The labels of a completion's items (none for a null answer).
fn labels(items: &Value) -> Vec<String> {
    if items.is_null() {
        return Vec::new();
    }
    items
        .as_array()
        .expect("completion items")
        .iter()
        .map(|item| item["label"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_config_change_checks_the_open_files_again() {
    let dir = project("lsp-watch");
    let call = "return redis.call('HEXPIRE', KEYS[1], 10, 'FIELDS', 1, 'f')\n";
    let script = write(&dir, "expire.lua", call);
    let mut client = Client::start();
    client.initialize_with(
        &dir,
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }),
    );
    // The server asks to be told of the config files' changes.
    let register = loop {
        let message = client.receive();
        if message["method"] == "client/registerCapability" {
            break message;
        }
        client.pending.push(message);
    };
    let registration = &register["params"]["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    assert_eq!(
        registration["registerOptions"]["watchers"],
        json!([{ "globPattern": "**/redis-lua.toml" }, { "globPattern": "**/*.lua" }])
    );
    client.send(json!({ "jsonrpc": "2.0", "id": register["id"], "result": null }));

    // Every server by default: Redis 7.0 has no HEXPIRE.
    client.open(&script, call);
    let before = client.diagnostics(&script);
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0]["code"], "unknown_commands");
    // The config now targets Redis 8.2: the script, untouched, is checked
    // again.
    let config = write(&dir, "redis-lua.toml", "servers = [\"redis-8.2\"]\n");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&config), "type": 1 }] }),
    );
    assert_eq!(client.diagnostics(&script), Vec::<Value>::new());
    // And back.
    std::fs::remove_file(&config).unwrap();
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": uri(&config), "type": 3 }] }),
    );
    assert_eq!(client.diagnostics(&script).len(), 1);
    client.stop();
}

#[test]
fn a_fragment_opened_alone_is_checked_where_it_is_included() {
    // BullMQ's layout: a helper that uses its includer's `rcall`.
    let dir = project("lsp-fragment");
    let helper_text = "local function bump(key)\n  return rcall('INCRR', key)\nend\n";
    let helper = write(&dir, "includes/bump.lua", helper_text);
    for name in ["addJob-1.lua", "moveJob-1.lua"] {
        write(
            &dir,
            name,
            "local rcall = redis.call\n--- @include \"includes/bump\"\nreturn bump(KEYS[1])\n",
        );
    }
    let mut client = Client::start();
    client.initialize(&dir);
    client.open(&helper, helper_text);
    // The includers' finding in the fragment, once, on its own line, with
    // the line that includes it.
    let diagnostics = client.diagnostics(&helper);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let finding = &diagnostics[0];
    assert_eq!(finding["code"], "unknown_commands");
    assert_eq!(finding["range"], range((1, 15), (1, 22)));
    let related = &finding["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], uri(&dir.join("addJob-1.lua")));
    assert_eq!(related["location"]["range"]["start"]["line"], 1);
    assert_eq!(related["message"], "included from addJob-1.lua");
    // And its fix, in the fragment.
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri(&helper) },
                "range": range((1, 17), (1, 17)),
                "context": { "diagnostics": [finding] },
            }),
        )
        .expect("code actions");
    assert_eq!(actions[0]["title"], "replace `INCRR` with `INCR`");
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(
        actions[0]["edit"]["changes"][uri(&helper)],
        json!([{ "range": range((1, 16), (1, 21)), "newText": "INCR" }])
    );
    // Fixed in the editor, it is clean where it is included.
    client.change(
        &helper,
        2,
        json!([{ "text": helper_text.replace("INCRR", "INCR") }]),
    );
    assert_eq!(client.diagnostics(&helper), Vec::<Value>::new());
    // An includer edited in the editor checks the fragment again: without
    // its `rcall`, the fragment's call reads an undefined global there.
    let includer = dir.join("addJob-1.lua");
    let includer_text = "--- @include \"includes/bump\"\nreturn bump(KEYS[1])\n";
    client.open(&includer, includer_text);
    client.diagnostics(&includer);
    let again = client.diagnostics(&helper);
    assert!(
        again.iter().any(|d| d["code"] == "undefined_global"),
        "{again:?}"
    );
    client.change(
        &includer,
        2,
        json!([{ "text": format!("local rcall = redis.call\n{includer_text}") }]),
    );
    client.diagnostics(&includer);
    assert_eq!(client.diagnostics(&helper), Vec::<Value>::new());
    // Its `rcall` is its includers' alias: hover and completion follow it.
    let hover = client.at("textDocument/hover", &helper, 1, 17);
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|shown| shown.starts_with("**INCR**")),
        "{hover}"
    );
    client.stop();
}

#[test]
fn aliases_and_the_case_typed() {
    let dir = project("lsp-aliases");
    let text = "local rcall = redis.call\nreturn rcall('set', KEYS[1], ARGV[1], 'ke')\n";
    let script = write(&dir, "alias.lua", text);
    let mut client = Client::start();
    client.initialize(&dir);
    client.open(&script, text);
    client.diagnostics(&script);

    // Completion in `rcall(...)`, as in `redis.call(...)`: the option
    // words in the case typed, with that text to filter by.
    let cursor = text.lines().nth(1).unwrap().find("ke'").unwrap() as u32 + 2;
    let items = client.at("textDocument/completion", &script, 1, cursor);
    assert_eq!(labels(&items), ["keepttl"]);
    assert_eq!(items[0]["filterText"], "keepttl");
    assert_eq!(items[0]["textEdit"]["newText"], "keepttl");

    // Hover on the command's name in `rcall(...)` says what it says in
    // `redis.call(...)`.
    let plain = write(
        &dir,
        "plain.lua",
        "return redis.call('set', KEYS[1], ARGV[1])\n",
    );
    client.open(&plain, "return redis.call('set', KEYS[1], ARGV[1])\n");
    client.diagnostics(&plain);
    let through_alias = client.at("textDocument/hover", &script, 1, 15);
    let direct = client.at("textDocument/hover", &plain, 0, 20);
    assert!(
        through_alias["contents"]["value"]
            .as_str()
            .unwrap()
            .starts_with("**SET**"),
        "{through_alias}"
    );
    assert_eq!(through_alias["contents"], direct["contents"]);
    client.stop();
}

#[test]
fn includes_and_config() {
    let dir = project("lsp-includes");
    write(
        &dir,
        "lib/helper.lua",
        "local function helper()\n  return redis.call('NOPE')\nend\n",
    );
    let main_text = "-- the helper\n--- @include \"lib/helper\"\nreturn helper()\n";
    let main = write(&dir, "main.lua", main_text);
    let mut client = Client::start();
    client.initialize(&dir);

    // The included file's finding is shown on the line that includes it,
    // with its place in the file as related information.
    client.open(&main, main_text);
    let diagnostics = client.diagnostics(&main);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let included = &diagnostics[0];
    assert_eq!(included["range"], range((1, 0), (1, 25)));
    assert_eq!(included["code"], "unknown_commands");
    let message = included["message"].as_str().unwrap();
    assert!(
        message.starts_with("lib/helper.lua:2:21: `nope` is not a Redis command"),
        "{message}"
    );
    let related = &included["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], uri(&dir.join("lib/helper.lua")));
    assert_eq!(related["location"]["range"], range((1, 20), (1, 26)));

    // The helper's unsaved text wins over the file on disk.
    let helper = dir.join("lib/helper.lua");
    client.open(
        &helper,
        "local function helper()\n  return redis.call('PING')\nend\n",
    );
    client.diagnostics(&helper);
    assert_eq!(client.diagnostics(&main), Vec::<Value>::new());

    // The nearest redis-lua.toml is the one in the file's folder: Redis 8.2
    // has HEXPIRE, the default targets (every server, Redis 7.0 among them)
    // do not.
    let call = "return redis.call('HEXPIRE', KEYS[1], 10, 'FIELDS', 1, 'f')\n";
    write(&dir, "newer/redis-lua.toml", "servers = [\"redis-8.2\"]\n");
    let newer = write(&dir, "newer/expire.lua", call);
    let older = write(&dir, "expire.lua", call);
    client.open(&newer, call);
    assert_eq!(client.diagnostics(&newer), Vec::<Value>::new());
    client.open(&older, call);
    let diagnostics = client.diagnostics(&older);
    assert_eq!(as_the_cli_says(&diagnostics), checked_by_the_cli(&older));
    assert_eq!(checked_by_the_cli(&newer), []);
    assert_eq!(diagnostics[0]["code"], "unknown_commands");
    // Completion offers what the file's servers have.
    let items = client.at("textDocument/completion", &newer, 0, 19);
    assert!(labels(&items).contains(&"HEXPIRE".to_owned()));
    let items = client.at("textDocument/completion", &older, 0, 19);
    assert!(!labels(&items).contains(&"HEXPIRE".to_owned()));
    // And the words of their commands: `CLIENT KILL MAXAGE` came in Redis
    // 7.4, which Redis 7.0 predates.
    let kill = "return redis.call('CLIENT', 'KILL', 'ID', '7', 'MAX')\n";
    let cursor = kill.find("MAX'").unwrap() as u32 + 3;
    let newer = write(&dir, "newer/kill.lua", kill);
    let older = write(&dir, "kill.lua", kill);
    client.open(&newer, kill);
    client.open(&older, kill);
    let items = client.at("textDocument/completion", &newer, 0, cursor);
    assert_eq!(labels(&items), ["MAXAGE"]);
    assert_eq!(
        client.at("textDocument/completion", &older, 0, cursor),
        Value::Null
    );
    client.diagnostics(&newer);
    client.diagnostics(&older);

    // A mistake two includes down: on the line that starts the chain.
    write(
        &dir,
        "lib/outer.lua",
        "--- @include \"missing\"\nlocal x = 1\n",
    );
    let chained_text = "--- @include \"lib/outer\"\nreturn x\n";
    let chained = write(&dir, "chained.lua", chained_text);
    client.open(&chained, chained_text);
    let diagnostics = client.diagnostics(&chained);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "include");
    assert_eq!(diagnostics[0]["range"], range((0, 0), (0, 24)));
    // The command line's message, after the place in the included file.
    let message = diagnostics[0]["message"].as_str().unwrap();
    let cli = checked_by_the_cli(&chained);
    assert_eq!(
        message.strip_prefix("lib/outer.lua:1:1: "),
        Some(cli[0].2.as_str())
    );

    let (status, log) = client.stop();
    assert_eq!((status, log.as_str()), (0, ""));
}

#[test]
fn the_protocols_order() {
    let mut client = Client::start();
    // Before `initialize`, a request is refused.
    let early = client.request("textDocument/hover", json!({}));
    assert_eq!(early.unwrap_err()["code"], -32002);
    client.initialize(&project("lsp-order"));
    assert_eq!(
        client.request("initialize", json!({})).unwrap_err()["code"],
        -32600
    );
    // `exit` without `shutdown`: status 1.
    client.notify("exit", Value::Null);
    assert_eq!(client.wait().0, 1);
}

#[test]
fn odd_input_is_answered() {
    let dir = project("lsp-odd");
    let mut client = Client::start();
    client.initialize(&dir);
    let script = dir.join("odd.lua");
    let text = "return redis.call('GET', KEYS[1]) -- 😀\n";
    client.open(&script, text);
    assert_eq!(client.diagnostics(&script), Vec::<Value>::new());
    // Places past the end of a line, of the text, and inside a surrogate pair.
    for (line, character) in [(0, 99), (99, 0), (0, 38), (u32::MAX, u32::MAX)] {
        for method in ["textDocument/hover", "textDocument/completion"] {
            client.at(method, &script, line, character);
        }
    }
    // A reversed range and one past the end change nothing they should not.
    client.change(
        &script,
        2,
        json!([
            { "range": range((0, 10), (0, 5)), "text": "" },
            { "range": range((7, 0), (9, 9)), "text": "-- end" },
        ]),
    );
    client.diagnostics(&script);
    // Documents that are not open.
    let elsewhere = dir.join("closed.lua");
    assert_eq!(
        client.at("textDocument/hover", &elsewhere, 0, 0),
        Value::Null
    );
    assert_eq!(
        client.at("textDocument/completion", &elsewhere, 0, 0),
        Value::Null
    );
    let actions = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri(&elsewhere) },
            "range": range((0, 0), (0, 0)),
            "context": { "diagnostics": [] },
        }),
    );
    assert_eq!(actions, Ok(json!([])));
    client.change(&elsewhere, 2, json!([{ "text": "x" }]));
    // A document that is not a file.
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": {
            "uri": "untitled:Untitled-1", "languageId": "lua", "version": 1,
            "text": "return redis.call('NOPE')",
        }}),
    );
    let (status, log) = client.stop();
    assert_eq!(status, 0, "{log}");
    assert!(log.contains("is not open"), "{log}");
}

#[test]
fn lsp_takes_no_argument() {
    let output = Command::new(env!("CARGO_BIN_EXE_redis-lua"))
        .args(["lsp", "--stdio", "scripts"])
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`lsp` takes no argument"), "{stderr}");
}
