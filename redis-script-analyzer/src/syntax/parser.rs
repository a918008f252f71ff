//! The Lua 5.1 parser, rule for rule as Redis 7 compiles a script (Lua
//! 5.1.5's `lparser.c`): it accepts exactly what `SCRIPT LOAD` accepts, and
//! its first error is Lua's first error, in Lua's words (without the
//! `user_script:LINE:` prefix; the span gives the place).
//!
//! Besides the grammar, it enforces what Lua's parser checks while it reads:
//! `...` only in vararg functions, `break` only in a loop, at most 200 active
//! local variables per function, 200 nested levels of blocks and
//! expressions (`LUAI_MAXCCALLS`), and the matching limit on the number of
//! targets of one assignment. Not enforced: the code generator's limits (60
//! upvalues per function, 250 registers: "function or expression too
//! complex"; constant and jump ranges), which need scripts far past any
//! realistic size or shape.

use std::fmt;

use crate::syntax::lexer::{LexError, Lexer, Token, TokenKind, with_near};
use crate::syntax::tree::{
    BinOp, Block, Chunk, Expr, Field, FuncBody, FuncName, Name, Return, Span, Stat, UnOp,
};

/// Why a script does not compile, as Lua says it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SyntaxError {
    /// Lua's message, e.g. `'=' expected near 'x'`.
    pub message: String,
    /// The offending token (or the unfinished one) in the source.
    pub span: Span,
}

impl SyntaxError {
    /// `message`, with Lua's ` near '<token>'` when there is a token to quote.
    pub fn new(message: &str, near: Option<String>, span: Span) -> SyntaxError {
        SyntaxError {
            message: with_near(message, near),
            span,
        }
    }
}

impl From<LexError> for Box<SyntaxError> {
    fn from(error: LexError) -> Box<SyntaxError> {
        Box::new(SyntaxError {
            message: error.message,
            span: error.span,
        })
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// Parses a whole script, its shebang line (if any) skipped: bytes, as the
/// server reads them (text is bytes too).
pub fn parse<S: AsRef<[u8]> + ?Sized>(source: &S) -> std::result::Result<Chunk, SyntaxError> {
    let block = Parser::new(source.as_ref()).and_then(|mut parser| parser.main());
    match block {
        Ok(block) => Ok(Chunk { block }),
        Err(error) => Err(*error),
    }
}

/// `LUAI_MAXCCALLS`: nesting depth of blocks and expressions.
const MAX_LEVELS: usize = 200;
/// `LUAI_MAXVARS`: active local variables per function.
const MAX_VARS: usize = 200;
/// `UNARY_PRIORITY`.
const UNARY_PRIORITY: u8 = 8;

/// What Lua's parser tracks per function that decides whether a script compiles.
struct FuncState {
    is_vararg: bool,
    /// The line of its `function` (0 for the main chunk), for limit messages.
    line_defined: usize,
    /// Active local variables, hidden ones (`self`, `arg`, loop state) included.
    active_vars: usize,
    /// Enclosing loops in this function (for `break`).
    loops: usize,
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    /// The current token (Lua's `ls->t`).
    token: Token,
    /// The token after it, when read ahead (Lua's `ls->lookahead`).
    ahead: Option<Token>,
    /// Lua's `ls->lastline`: the lexer's line when the current token was taken.
    last_line: usize,
    /// Where the previous token ended: the end of the construct just parsed.
    last_end: usize,
    /// Lua's `nCcalls`: nested blocks and expressions.
    level: usize,
    funcs: Vec<FuncState>,
}

fn binary_op(kind: TokenKind) -> Option<BinOp> {
    Some(match kind {
        TokenKind::Char('+') => BinOp::Add,
        TokenKind::Char('-') => BinOp::Sub,
        TokenKind::Char('*') => BinOp::Mul,
        TokenKind::Char('/') => BinOp::Div,
        TokenKind::Char('%') => BinOp::Mod,
        TokenKind::Char('^') => BinOp::Pow,
        TokenKind::Concat => BinOp::Concat,
        TokenKind::Ne => BinOp::Ne,
        TokenKind::Eq => BinOp::Eq,
        TokenKind::Char('<') => BinOp::Lt,
        TokenKind::Le => BinOp::Le,
        TokenKind::Char('>') => BinOp::Gt,
        TokenKind::Ge => BinOp::Ge,
        TokenKind::And => BinOp::And,
        TokenKind::Or => BinOp::Or,
        _ => return None,
    })
}

/// Left and right priority of a binary operator (`priority` in lparser.c):
/// `^` and `..` are right associative.
pub fn priority(op: BinOp) -> (u8, u8) {
    match op {
        BinOp::Add | BinOp::Sub => (6, 6),
        BinOp::Mul | BinOp::Div | BinOp::Mod => (7, 7),
        BinOp::Pow => (10, 9),
        BinOp::Concat => (5, 4),
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => (3, 3),
        BinOp::And => (2, 2),
        BinOp::Or => (1, 1),
    }
}

fn unary_op(kind: TokenKind) -> Option<UnOp> {
    match kind {
        TokenKind::Not => Some(UnOp::Not),
        TokenKind::Char('-') => Some(UnOp::Neg),
        TokenKind::Char('#') => Some(UnOp::Len),
        _ => None,
    }
}

/// Tokens that end a block.
fn block_follow(kind: TokenKind) -> bool {
    matches!(
        kind,
        TokenKind::Else | TokenKind::Elseif | TokenKind::End | TokenKind::Until | TokenKind::Eof
    )
}

/// Errors are boxed inside the parser, to keep the recursive frames small.
type Result<T> = std::result::Result<T, Box<SyntaxError>>;

impl<'a> Parser<'a> {
    fn new(source: &'a [u8]) -> Result<Parser<'a>> {
        let mut lexer = Lexer::new(source)?;
        let first = lexer.next_token()?;
        let mut parser = Parser {
            lexer,
            token: first,
            ahead: None,
            last_line: 1,
            last_end: 0,
            level: 0,
            funcs: Vec::new(),
        };
        parser.last_end = parser.token.span.start;
        Ok(parser)
    }

    /// `luaY_parser`: the main chunk, a vararg function, up to `<eof>`.
    fn main(&mut self) -> Result<Block> {
        self.funcs.push(FuncState {
            is_vararg: true,
            line_defined: 0,
            active_vars: 0,
            loops: 0,
        });
        let block = self.chunk()?;
        self.check(TokenKind::Eof)?;
        Ok(block)
    }

    // ----- tokens -----

    /// `luaX_next`.
    fn next(&mut self) -> Result<()> {
        self.last_line = self.lexer.line();
        self.last_end = self.token.span.end;
        self.token = match self.ahead.take() {
            Some(token) => token,
            None => self.lexer.next_token()?,
        };
        Ok(())
    }

    /// `luaX_lookahead`.
    fn peek(&mut self) -> Result<TokenKind> {
        if self.ahead.is_none() {
            self.ahead = Some(self.lexer.next_token()?);
        }
        Ok(self.ahead.as_ref().map_or(TokenKind::Eof, |t| t.kind))
    }

    fn is(&self, kind: TokenKind) -> bool {
        self.token.kind == kind
    }

    fn is_char(&self, c: char) -> bool {
        self.token.kind == TokenKind::Char(c)
    }

    /// `testnext`.
    fn test_next(&mut self, kind: TokenKind) -> Result<bool> {
        if self.is(kind) {
            self.next()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// `luaX_syntaxerror`: `message` near the current token.
    fn error(&self, message: &str) -> Box<SyntaxError> {
        Box::new(SyntaxError::new(
            message,
            self.lexer.near(&self.token),
            self.token.span,
        ))
    }

    /// `error_expected`.
    fn expected(&self, kind: TokenKind) -> Box<SyntaxError> {
        self.error(&format!("'{}' expected", kind.describe()))
    }

    /// `check`.
    fn check(&self, kind: TokenKind) -> Result<()> {
        if self.is(kind) {
            Ok(())
        } else {
            Err(self.expected(kind))
        }
    }

    /// `checknext`.
    fn check_next(&mut self, kind: TokenKind) -> Result<()> {
        self.check(kind)?;
        self.next()
    }

    /// `check_match`: the token closing `who`, opened on line `line`.
    fn check_match(&mut self, what: TokenKind, who: TokenKind, line: usize) -> Result<()> {
        if self.test_next(what)? {
            return Ok(());
        }
        if line == self.lexer.line() {
            Err(self.expected(what))
        } else {
            Err(self.error(&format!(
                "'{}' expected (to close '{}' at line {line})",
                what.describe(),
                who.describe()
            )))
        }
    }

    /// `str_checkname`.
    fn check_name(&mut self) -> Result<Name> {
        self.check(TokenKind::Name)?;
        let span = self.token.span;
        let name = Name {
            text: self.lexer.text(span).into_owned(),
            span,
        };
        self.next()?;
        Ok(name)
    }

    /// The span from `start` to the end of the last token consumed.
    fn span_from(&self, start: usize) -> Span {
        Span::new(start, self.last_end.max(start))
    }

    // ----- limits -----

    fn func(&mut self) -> &mut FuncState {
        self.funcs.last_mut().expect("inside a function")
    }

    /// `enterlevel`.
    fn enter_level(&mut self) -> Result<()> {
        self.level += 1;
        if self.level > MAX_LEVELS {
            return Err(Box::new(SyntaxError::new(
                "chunk has too many syntax levels",
                None,
                self.token.span,
            )));
        }
        Ok(())
    }

    fn leave_level(&mut self) {
        self.level -= 1;
    }

    /// `errorlimit`.
    fn limit_error(&self, limit: usize, what: &str, span: Span) -> Box<SyntaxError> {
        let func = self.funcs.last().expect("inside a function");
        let message = if func.line_defined == 0 {
            format!("main function has more than {limit} {what}")
        } else {
            format!(
                "function at line {} has more than {limit} {what}",
                func.line_defined
            )
        };
        Box::new(SyntaxError::new(&message, None, span))
    }

    /// `new_localvar` for the `n`th (from 0) variable of a declaration not yet
    /// active: checks the limit on local variables.
    fn new_local(&self, n: usize, span: Span) -> Result<()> {
        let func = self.funcs.last().expect("inside a function");
        if func.active_vars + n + 1 > MAX_VARS {
            return Err(self.limit_error(MAX_VARS, "local variables", span));
        }
        Ok(())
    }

    /// `adjustlocalvars`.
    fn activate_locals(&mut self, n: usize) {
        self.func().active_vars += n;
    }

    // ----- blocks and statements -----
    //
    // Deeply nested scripts recurse deeply (up to `MAX_LEVELS`), and a proc
    // macro runs unoptimized, where every temporary of a function keeps its
    // own stack slot for the whole call. So the functions on the recursive
    // paths move nothing big by value: statements are built by `emit` and
    // expressions by `boxed`, in frames of their own that are gone before the
    // next level starts, and expressions travel boxed.

    /// `chunk`: statements up to a block-ending token; `return` or `break`
    /// only last.
    fn chunk(&mut self) -> Result<Block> {
        self.enter_level()?;
        let start = self.token.span.start;
        let mut stats = Vec::new();
        let mut ret = None;
        while !block_follow(self.token.kind) {
            let last = self.statement(&mut stats, &mut ret)?;
            self.test_next(TokenKind::Char(';'))?;
            if last {
                break;
            }
        }
        self.leave_level();
        Ok(Block {
            stats,
            ret,
            span: self.span_from(start),
        })
    }

    /// `block`: a chunk in its own scope.
    fn block(&mut self) -> Result<Block> {
        let active = self.func().active_vars;
        let block = self.chunk()?;
        self.func().active_vars = active;
        Ok(block)
    }

    /// One statement, pushed onto `out` (a `return` goes to `ret`); true
    /// for `return` and `break`, which must end their block.
    fn statement(&mut self, out: &mut Vec<Stat>, ret: &mut Option<Return>) -> Result<bool> {
        let line = self.lexer.line();
        let start = self.token.span.start;
        match self.token.kind {
            TokenKind::If => self.if_stat(line, start, out)?,
            TokenKind::While => self.while_stat(line, start, out)?,
            TokenKind::Do => self.do_stat(line, out)?,
            TokenKind::For => self.for_stat(line, start, out)?,
            TokenKind::Repeat => self.repeat_stat(line, start, out)?,
            TokenKind::Function => self.function_stat(line, start, out)?,
            TokenKind::Local => self.local_stat(start, out)?,
            TokenKind::Return => {
                *ret = Some(self.return_stat()?);
                return Ok(true);
            }
            TokenKind::Break => {
                self.break_stat(out)?;
                return Ok(true);
            }
            _ => self.expr_stat(start, out)?,
        }
        Ok(false)
    }

    fn return_stat(&mut self) -> Result<Return> {
        let start = self.token.span.start;
        self.next()?;
        let exprs = if block_follow(self.token.kind) || self.is_char(';') {
            Vec::new()
        } else {
            self.expr_list()?
        };
        Ok(Return {
            exprs,
            span: self.span_from(start),
        })
    }

    fn break_stat(&mut self, out: &mut Vec<Stat>) -> Result<()> {
        let span = self.token.span;
        self.next()?;
        if self.func().loops == 0 {
            return Err(self.error("no loop to break"));
        }
        emit(out, || Stat::Break(span));
        Ok(())
    }

    /// `do block end`
    fn do_stat(&mut self, line: usize, out: &mut Vec<Stat>) -> Result<()> {
        self.next()?;
        let block = self.block()?;
        self.check_match(TokenKind::End, TokenKind::Do, line)?;
        emit(out, || Stat::Do(block));
        Ok(())
    }

    /// `if cond then block {elseif cond then block} [else block] end`
    fn if_stat(&mut self, line: usize, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        let mut arms = Vec::new();
        loop {
            self.test_then_block(&mut arms)?;
            if !self.is(TokenKind::Elseif) {
                break;
            }
        }
        let otherwise = if self.test_next(TokenKind::Else)? {
            Some(self.block()?)
        } else {
            None
        };
        self.check_match(TokenKind::End, TokenKind::If, line)?;
        let span = self.span_from(start);
        emit(out, || Stat::If {
            arms,
            otherwise,
            span,
        });
        Ok(())
    }

    /// `test_then_block`: `cond then block`, after `if` or `elseif`.
    fn test_then_block(&mut self, arms: &mut Vec<(Expr, Block)>) -> Result<()> {
        self.next()?;
        let cond = self.expr()?;
        self.check_next(TokenKind::Then)?;
        let block = self.block()?;
        push_arm(arms, cond, block);
        Ok(())
    }

    fn while_stat(&mut self, line: usize, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        self.next()?;
        let cond = self.expr()?;
        let block = self.in_loop(|parser| {
            parser.check_next(TokenKind::Do)?;
            let block = parser.block()?;
            parser.check_match(TokenKind::End, TokenKind::While, line)?;
            Ok(block)
        })?;
        let span = self.span_from(start);
        emit(out, || Stat::While {
            cond: *cond,
            block,
            span,
        });
        Ok(())
    }

    /// `repeat block until cond`: the condition is inside the block's scope.
    fn repeat_stat(&mut self, line: usize, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        let (block, cond) = self.in_loop(|parser| {
            parser.next()?;
            let block = parser.chunk()?;
            parser.check_match(TokenKind::Until, TokenKind::Repeat, line)?;
            Ok((block, parser.expr()?))
        })?;
        let span = self.span_from(start);
        emit(out, || Stat::Repeat {
            block,
            cond: *cond,
            span,
        });
        Ok(())
    }

    fn for_stat(&mut self, line: usize, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        self.in_loop(|parser| {
            parser.next()?;
            let first = parser.check_name()?;
            // Three hidden control variables, then the loop's own names.
            parser.new_local(3, first.span)?;
            match parser.token.kind {
                TokenKind::Char('=') => parser.numeric_for(first, line, start, out),
                TokenKind::Char(',') | TokenKind::In => parser.generic_for(first, line, start, out),
                _ => Err(parser.error("'=' or 'in' expected")),
            }
        })
    }

    /// Parses a loop's inside with `body`: `break` is allowed there, and the
    /// locals it declares (a `for`'s variables, a `repeat` block's, which its
    /// `until` condition still sees) end with it.
    fn in_loop<T>(&mut self, body: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let active = self.func().active_vars;
        self.func().loops += 1;
        let inside = body(self)?;
        self.func().loops -= 1;
        self.func().active_vars = active;
        Ok(inside)
    }

    /// `for var = start, stop[, step] do block end`, after `var`.
    fn numeric_for(
        &mut self,
        var: Name,
        line: usize,
        start: usize,
        out: &mut Vec<Stat>,
    ) -> Result<()> {
        self.check_next(TokenKind::Char('='))?;
        let from = self.expr()?;
        self.check_next(TokenKind::Char(','))?;
        let stop = self.expr()?;
        let step = if self.test_next(TokenKind::Char(','))? {
            Some(self.expr()?)
        } else {
            None
        };
        let block = self.for_body(1, line)?;
        let span = self.span_from(start);
        emit(out, || Stat::NumericFor {
            var,
            start: *from,
            stop: *stop,
            step: step.map(|step| *step),
            block,
            span,
        });
        Ok(())
    }

    /// `for n1, n2 in e1, e2 do block end`, after `n1`.
    fn generic_for(
        &mut self,
        first: Name,
        line: usize,
        start: usize,
        out: &mut Vec<Stat>,
    ) -> Result<()> {
        let mut names = vec![first];
        while self.test_next(TokenKind::Char(','))? {
            let name = self.check_name()?;
            self.new_local(names.len() + 3, name.span)?;
            names.push(name);
        }
        self.check_next(TokenKind::In)?;
        let exprs = self.expr_list()?;
        let block = self.for_body(names.len(), line)?;
        let span = self.span_from(start);
        emit(out, || Stat::GenericFor {
            names,
            exprs,
            block,
            span,
        });
        Ok(())
    }

    /// `forbody`: `do block end`, with the control and declared variables
    /// active; `line` is the `for`'s, for the unmatched-`end` message.
    fn for_body(&mut self, vars: usize, line: usize) -> Result<Block> {
        self.activate_locals(3);
        self.check_next(TokenKind::Do)?;
        let active = self.func().active_vars;
        self.activate_locals(vars);
        let block = self.block()?;
        self.func().active_vars = active;
        self.check_match(TokenKind::End, TokenKind::For, line)?;
        Ok(block)
    }

    /// `function a.b.c:m(...) ... end`
    fn function_stat(&mut self, line: usize, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        self.next()?;
        let mut path = vec![self.check_name()?];
        while self.is_char('.') {
            self.next()?;
            path.push(self.check_name()?);
        }
        let method = if self.is_char(':') {
            self.next()?;
            Some(self.check_name()?)
        } else {
            None
        };
        let func = self.body(method.is_some(), line, start)?;
        let span = self.span_from(start);
        emit(out, || Stat::Function {
            name: FuncName { path, method },
            func: *func,
            span,
        });
        Ok(())
    }

    /// `local function f(...) ... end` or `local a, b = e1, e2`, at `local`.
    fn local_stat(&mut self, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        self.next()?;
        if self.test_next(TokenKind::Function)? {
            return self.local_function(start, out);
        }
        let mut names = Vec::new();
        loop {
            let name = self.check_name()?;
            self.new_local(names.len(), name.span)?;
            names.push(name);
            if !self.test_next(TokenKind::Char(','))? {
                break;
            }
        }
        let exprs = if self.test_next(TokenKind::Char('='))? {
            self.expr_list()?
        } else {
            Vec::new()
        };
        self.activate_locals(names.len());
        let span = self.span_from(start);
        emit(out, || Stat::Local { names, exprs, span });
        Ok(())
    }

    /// `local function f(...) ... end`, after `function`.
    fn local_function(&mut self, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        let function_start = self.last_end - "function".len();
        let name = self.check_name()?;
        self.new_local(0, name.span)?;
        self.activate_locals(1);
        let func = self.body(false, self.lexer.line(), function_start)?;
        let span = self.span_from(start);
        emit(out, || Stat::LocalFunction {
            name,
            func: *func,
            span,
        });
        Ok(())
    }

    /// A call statement or an assignment.
    fn expr_stat(&mut self, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        let first = self.primary_expr()?;
        if matches!(*first, Expr::Call { .. } | Expr::Method { .. }) {
            emit(out, || Stat::Call(*first));
            return Ok(());
        }
        self.assignment(first, start, out)
    }

    /// `assignment`: `t1, t2 = e1, e2`, after `t1`; each target must be a
    /// variable.
    #[allow(clippy::boxed_local)] // a box is small on the stack: see above
    fn assignment(&mut self, first: Box<Expr>, start: usize, out: &mut Vec<Stat>) -> Result<()> {
        let mut targets = vec![*first];
        loop {
            if !matches!(targets.last(), Some(Expr::Name(_) | Expr::Index { .. })) {
                return Err(self.error("syntax error"));
            }
            if !self.test_next(TokenKind::Char(','))? {
                break;
            }
            let target = self.primary_expr()?;
            let limit = MAX_LEVELS.saturating_sub(self.level);
            if targets.len() > limit {
                return Err(self.limit_error(limit, "variables in assignment", target.span()));
            }
            targets.push(*target);
        }
        self.check_next(TokenKind::Char('='))?;
        let exprs = self.expr_list()?;
        let span = self.span_from(start);
        emit(out, || Stat::Assign {
            targets,
            exprs,
            span,
        });
        Ok(())
    }

    // ----- functions -----

    /// `body`: `(params) block end`; `line` is where `function` is (for
    /// messages), `start` its offset (for the span).
    fn body(&mut self, is_method: bool, line: usize, start: usize) -> Result<Box<FuncBody>> {
        self.funcs.push(FuncState {
            is_vararg: false,
            line_defined: line,
            active_vars: 0,
            loops: 0,
        });
        self.check_next(TokenKind::Char('('))?;
        if is_method {
            // `self` (never over the limit: it is the first).
            self.activate_locals(1);
        }
        let params = self.params()?;
        self.check_next(TokenKind::Char(')'))?;
        let block = self.chunk()?;
        self.check_match(TokenKind::End, TokenKind::Function, line)?;
        let is_vararg = self.func().is_vararg;
        self.funcs.pop();
        let span = self.span_from(start);
        Ok(func_body(params, is_vararg, block, span))
    }

    /// `parlist`: names, optionally ending with `...`, up to `)`.
    fn params(&mut self) -> Result<Vec<Name>> {
        let mut params = Vec::new();
        let mut is_vararg = false;
        if !self.is_char(')') {
            loop {
                match self.token.kind {
                    TokenKind::Name => {
                        let name = self.check_name()?;
                        self.new_local(params.len(), name.span)?;
                        params.push(name);
                    }
                    TokenKind::Dots => {
                        let span = self.token.span;
                        self.next()?;
                        // LUA_COMPAT_VARARG: a hidden local `arg`.
                        self.new_local(params.len(), span)?;
                        is_vararg = true;
                    }
                    _ => return Err(self.error("<name> or '...' expected")),
                }
                if is_vararg || !self.test_next(TokenKind::Char(','))? {
                    break;
                }
            }
        }
        self.activate_locals(params.len() + usize::from(is_vararg));
        self.func().is_vararg = is_vararg;
        Ok(params)
    }

    // ----- expressions -----

    /// `explist1`: one or more expressions, separated by commas.
    fn expr_list(&mut self) -> Result<Vec<Expr>> {
        let mut exprs = Vec::new();
        loop {
            let expr = self.expr()?;
            exprs.push(*expr);
            if !self.test_next(TokenKind::Char(','))? {
                return Ok(exprs);
            }
        }
    }

    fn expr(&mut self) -> Result<Box<Expr>> {
        self.sub_expr(0)
    }

    /// `subexpr`: a unary or simple expression, then binary operators whose
    /// left priority is above `limit`.
    fn sub_expr(&mut self, limit: u8) -> Result<Box<Expr>> {
        self.enter_level()?;
        let mut lhs = match unary_op(self.token.kind) {
            Some(op) => self.unary(op)?,
            None => self.simple_expr()?,
        };
        while let Some(op) = binary_op(self.token.kind) {
            let (left, right) = priority(op);
            if left <= limit {
                break;
            }
            self.next()?;
            let rhs = self.sub_expr(right)?;
            lhs = binary(op, lhs, rhs);
        }
        self.leave_level();
        Ok(lhs)
    }

    /// A unary operator and its operand.
    fn unary(&mut self, op: UnOp) -> Result<Box<Expr>> {
        let start = self.token.span.start;
        self.next()?;
        let operand = self.sub_expr(UNARY_PRIORITY)?;
        let span = self.span_from(start);
        Ok(boxed(|| Expr::Unary {
            op,
            expr: operand,
            span,
        }))
    }

    /// `simpleexp`: literals, `...`, tables, functions, else a primary expression.
    fn simple_expr(&mut self) -> Result<Box<Expr>> {
        match self.token.kind {
            TokenKind::Char('{') => self.table(),
            TokenKind::Function => self.function_expr(),
            TokenKind::Number
            | TokenKind::String
            | TokenKind::Nil
            | TokenKind::True
            | TokenKind::False
            | TokenKind::Dots => self.literal(),
            _ => self.primary_expr(),
        }
    }

    /// A literal or `...`.
    fn literal(&mut self) -> Result<Box<Expr>> {
        let span = self.token.span;
        let expr = match self.token.kind {
            TokenKind::Number => Expr::Number(self.token.number, span),
            TokenKind::String => Expr::String(std::mem::take(&mut self.token.string), span),
            TokenKind::Nil => Expr::Nil(span),
            TokenKind::True => Expr::True(span),
            TokenKind::False => Expr::False(span),
            _ => {
                if !self.func().is_vararg {
                    return Err(self.error("cannot use '...' outside a vararg function"));
                }
                Expr::Vararg(span)
            }
        };
        self.next()?;
        Ok(Box::new(expr))
    }

    /// `function (params) block end`, at `function`.
    fn function_expr(&mut self) -> Result<Box<Expr>> {
        let start = self.token.span.start;
        self.next()?;
        let line = self.lexer.line();
        let body = self.body(false, line, start)?;
        Ok(boxed(|| Expr::Function(*body)))
    }

    /// `primaryexp`: a name or a parenthesized expression, then any number of
    /// `.name`, `[expr]`, `:name args` and call arguments.
    fn primary_expr(&mut self) -> Result<Box<Expr>> {
        let start = self.token.span.start;
        // `prefixexp`
        let mut expr = match self.token.kind {
            TokenKind::Char('(') => self.paren()?,
            TokenKind::Name => self.name_expr()?,
            _ => return Err(self.error("unexpected symbol")),
        };
        loop {
            expr = match self.token.kind {
                TokenKind::Char('.') => self.dot_index(expr, start)?,
                TokenKind::Char('[') => self.bracket_index(expr, start)?,
                TokenKind::Char(':') => self.method_call(expr, start)?,
                TokenKind::Char('(' | '{') | TokenKind::String => self.call(expr, start)?,
                _ => return Ok(expr),
            };
        }
    }

    fn name_expr(&mut self) -> Result<Box<Expr>> {
        let name = self.check_name()?;
        Ok(boxed(|| Expr::Name(name)))
    }

    /// `( expr )`
    fn paren(&mut self) -> Result<Box<Expr>> {
        let start = self.token.span.start;
        let line = self.lexer.line();
        self.next()?;
        let inner = self.expr()?;
        self.check_match(TokenKind::Char(')'), TokenKind::Char('('), line)?;
        let span = self.span_from(start);
        Ok(boxed(|| Expr::Paren(inner, span)))
    }

    /// `obj.name`
    fn dot_index(&mut self, obj: Box<Expr>, start: usize) -> Result<Box<Expr>> {
        self.next()?;
        let name = self.check_name()?;
        let span = self.span_from(start);
        Ok(boxed(|| Expr::Index {
            obj,
            key: Box::new(Expr::String(name.text.clone().into_bytes(), name.span)),
            dot: Some(name),
            span,
        }))
    }

    /// `obj[key]`
    fn bracket_index(&mut self, obj: Box<Expr>, start: usize) -> Result<Box<Expr>> {
        self.next()?;
        let key = self.expr()?;
        self.check_next(TokenKind::Char(']'))?;
        let span = self.span_from(start);
        Ok(boxed(|| Expr::Index {
            obj,
            key,
            dot: None,
            span,
        }))
    }

    /// `obj:name args`
    fn method_call(&mut self, obj: Box<Expr>, start: usize) -> Result<Box<Expr>> {
        self.next()?;
        let name = self.check_name()?;
        let args = self.call_args()?;
        let span = self.span_from(start);
        Ok(boxed(|| Expr::Method {
            obj,
            name,
            args,
            span,
        }))
    }

    /// `func args`
    fn call(&mut self, func: Box<Expr>, start: usize) -> Result<Box<Expr>> {
        let args = self.call_args()?;
        let span = self.span_from(start);
        Ok(boxed(|| Expr::Call { func, args, span }))
    }

    /// `funcargs`: `(exprs)`, a table or a string.
    fn call_args(&mut self) -> Result<Vec<Expr>> {
        let line = self.lexer.line();
        match self.token.kind {
            TokenKind::Char('(') => {
                if line != self.last_line {
                    return Err(self.error("ambiguous syntax (function call x new statement)"));
                }
                self.next()?;
                let args = if self.is_char(')') {
                    Vec::new()
                } else {
                    self.expr_list()?
                };
                self.check_match(TokenKind::Char(')'), TokenKind::Char('('), line)?;
                Ok(args)
            }
            TokenKind::Char('{') => {
                let table = self.table()?;
                Ok(one_arg(table))
            }
            TokenKind::String => {
                let string = self.literal()?;
                Ok(one_arg(string))
            }
            _ => Err(self.error("function arguments expected")),
        }
    }

    /// `constructor`: `{ fields }`, separated by `,` or `;`, one optionally
    /// after the last.
    fn table(&mut self) -> Result<Box<Expr>> {
        let start = self.token.span.start;
        let line = self.lexer.line();
        self.check_next(TokenKind::Char('{'))?;
        let mut fields = Vec::new();
        while !self.is_char('}') {
            self.field(&mut fields)?;
            if !(self.test_next(TokenKind::Char(','))? || self.test_next(TokenKind::Char(';'))?) {
                break;
            }
        }
        self.check_match(TokenKind::Char('}'), TokenKind::Char('{'), line)?;
        let span = self.span_from(start);
        Ok(boxed(|| Expr::Table(fields, span)))
    }

    /// One field of a table constructor, pushed onto `out`.
    fn field(&mut self, out: &mut Vec<Field>) -> Result<()> {
        // A name followed by `=` names a field: Lua reads one token ahead.
        if self.is(TokenKind::Name) && self.peek()? == TokenKind::Char('=') {
            self.named_field(out)
        } else if self.is_char('[') {
            self.keyed_field(out)
        } else {
            let value = self.expr()?;
            push_field(out, || Field::Positional(*value));
            Ok(())
        }
    }

    /// `name = value`
    fn named_field(&mut self, out: &mut Vec<Field>) -> Result<()> {
        let name = self.check_name()?;
        self.next()?; // `=`
        let value = self.expr()?;
        push_field(out, || Field::Named(name, *value));
        Ok(())
    }

    /// `[key] = value`
    fn keyed_field(&mut self, out: &mut Vec<Field>) -> Result<()> {
        self.next()?;
        let key = self.expr()?;
        self.check_next(TokenKind::Char(']'))?;
        self.check_next(TokenKind::Char('='))?;
        let value = self.expr()?;
        push_field(out, || Field::Keyed(*key, *value));
        Ok(())
    }
}

/// Builds a statement in a frame of its own (see "blocks and statements")
/// and pushes it.
#[inline(never)]
fn emit(out: &mut Vec<Stat>, make: impl FnOnce() -> Stat) {
    out.push(make());
}

/// Builds a table field in a frame of its own and pushes it.
#[inline(never)]
fn push_field(out: &mut Vec<Field>, make: impl FnOnce() -> Field) {
    out.push(make());
}

#[inline(never)]
fn func_body(params: Vec<Name>, is_vararg: bool, block: Block, span: Span) -> Box<FuncBody> {
    Box::new(FuncBody {
        params,
        is_vararg,
        block,
        span,
    })
}

/// Builds an expression in a frame of its own, boxed.
#[inline(never)]
fn boxed(make: impl FnOnce() -> Expr) -> Box<Expr> {
    Box::new(make())
}

#[inline(never)]
#[allow(clippy::boxed_local)] // unboxed in this small frame: see "blocks and statements"
fn push_arm(arms: &mut Vec<(Expr, Block)>, cond: Box<Expr>, block: Block) {
    arms.push((*cond, block));
}

/// The argument list of `f{...}` or `f"..."`.
#[inline(never)]
#[allow(clippy::boxed_local)] // unboxed in this small frame: see "blocks and statements"
fn one_arg(arg: Box<Expr>) -> Vec<Expr> {
    vec![*arg]
}

/// A binary operation; its span covers both operands.
#[inline(never)]
fn binary(op: BinOp, lhs: Box<Expr>, rhs: Box<Expr>) -> Box<Expr> {
    let span = lhs.span().to(rhs.span());
    Box::new(Expr::Binary { op, lhs, rhs, span })
}

#[cfg(test)]
mod tests {
    use super::*;
    use redis_script_test_support::lua::{ACCEPTED, SYNTAX_ERRORS};

    fn err(src: &str) -> String {
        match parse(src) {
            Ok(chunk) => panic!("{src:?} parsed: {chunk:?}"),
            Err(e) => e.message,
        }
    }

    fn err_span(src: &str) -> (String, &str) {
        let e = parse(src).expect_err(src);
        (e.message, &src[e.span.start..e.span.end])
    }

    fn ok(src: &str) -> Chunk {
        parse(src).unwrap_or_else(|e| panic!("{src:?}: {e}"))
    }

    /// The expression of `return <expr>`, in a compact prefix notation that
    /// shows the tree's shape.
    fn shape(src: &str) -> String {
        let chunk = ok(&format!("return {src}"));
        let ret = chunk.block.ret.expect("a return");
        assert_eq!(ret.exprs.len(), 1);
        show(&ret.exprs[0])
    }

    fn show(e: &Expr) -> String {
        match e {
            Expr::Nil(_) => "nil".into(),
            Expr::True(_) => "true".into(),
            Expr::False(_) => "false".into(),
            Expr::Number(n, _) => format!("{n}"),
            Expr::String(s, _) => format!("{:?}", String::from_utf8_lossy(s)),
            Expr::Vararg(_) => "...".into(),
            Expr::Function(_) => "fn".into(),
            Expr::Table(fields, _) => format!("{{{}}}", fields.len()),
            Expr::Binary { op, lhs, rhs, .. } => format!("({op:?} {} {})", show(lhs), show(rhs)),
            Expr::Unary { op, expr, .. } => format!("({op:?} {})", show(expr)),
            Expr::Name(n) => n.text.clone(),
            Expr::Index { obj, key, .. } => format!("{}[{}]", show(obj), show(key)),
            Expr::Call { func, args, .. } => {
                format!(
                    "{}({})",
                    show(func),
                    args.iter().map(show).collect::<Vec<_>>().join(",")
                )
            }
            Expr::Method {
                obj, name, args, ..
            } => format!(
                "{}:{}({})",
                show(obj),
                name.text,
                args.iter().map(show).collect::<Vec<_>>().join(",")
            ),
            Expr::Paren(e, _) => format!("<{}>", show(e)),
        }
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(shape("1 + 2 * 3"), "(Add 1 (Mul 2 3))");
        assert_eq!(shape("1 * 2 + 3"), "(Add (Mul 1 2) 3)");
        assert_eq!(shape("1 - 2 - 3"), "(Sub (Sub 1 2) 3)");
        assert_eq!(shape("2 ^ 3 ^ 2"), "(Pow 2 (Pow 3 2))");
        assert_eq!(shape("a .. b .. c"), "(Concat a (Concat b c))");
        assert_eq!(shape("-x ^ 2"), "(Neg (Pow x 2))");
        assert_eq!(shape("-x * 2"), "(Mul (Neg x) 2)");
        assert_eq!(shape("not a == b"), "(Eq (Not a) b)");
        assert_eq!(shape("#t + 1"), "(Add (Len t) 1)");
        assert_eq!(shape("a or b and c"), "(Or a (And b c))");
        assert_eq!(shape("a and b or c"), "(Or (And a b) c)");
        assert_eq!(shape("a < b == c"), "(Eq (Lt a b) c)");
        assert_eq!(shape("1 .. 2 + 3"), "(Concat 1 (Add 2 3))");
        assert_eq!(shape("a + b .. c + d"), "(Concat (Add a b) (Add c d))");
        assert_eq!(shape("a == b and c ~= d"), "(And (Eq a b) (Ne c d))");
        assert_eq!(shape("2 ^ -3"), "(Pow 2 (Neg 3))");
        assert_eq!(shape("- - 1"), "(Neg (Neg 1))");
        assert_eq!(shape("a % b / c"), "(Div (Mod a b) c)");
        assert_eq!(shape("(a + b) * c"), "(Mul <(Add a b)> c)");
        assert_eq!(
            shape("a >= b or a <= c or a > d"),
            "(Or (Or (Ge a b) (Le a c)) (Gt a d))"
        );
    }

    #[test]
    fn primary_expressions() {
        assert_eq!(shape("a.b.c"), r#"a["b"]["c"]"#);
        assert_eq!(shape("a[1]:m(2)"), "a[1]:m(2)");
        assert_eq!(shape("f'x'{}\"y\""), r#"f("x")({0})("y")"#);
        assert_eq!(shape("f[[x]]"), r#"f("x")"#);
        assert_eq!(shape("(f)()"), "<f>()");
        assert_eq!(shape("{1, x = 2, [3] = 4; 5,}"), "{4}");
        assert_eq!(shape("{}"), "{0}");
        assert_eq!(shape("function(a, ...) end"), "fn");
        assert_eq!(shape("..."), "...");
        assert_eq!(shape("0x10"), "16");
    }

    #[test]
    fn spans() {
        let src = "local x = redis.calll('GET', KEYS[1])\nreturn x";
        let chunk = ok(src);
        let text = |s: Span| &src[s.start..s.end];
        assert_eq!(text(chunk.block.span), src);
        let Stat::Local { names, exprs, span } = &chunk.block.stats[0] else {
            panic!()
        };
        assert_eq!(text(*span), "local x = redis.calll('GET', KEYS[1])");
        assert_eq!(text(names[0].span), "x");
        let Expr::Call { func, args, span } = &exprs[0] else {
            panic!()
        };
        assert_eq!(text(*span), "redis.calll('GET', KEYS[1])");
        let Expr::Index {
            dot: Some(dot),
            span,
            ..
        } = &**func
        else {
            panic!()
        };
        assert_eq!(text(dot.span), "calll");
        assert_eq!(text(*span), "redis.calll");
        assert_eq!(text(args[0].span()), "'GET'");
        assert_eq!(text(args[1].span()), "KEYS[1]");
        let ret = chunk.block.ret.as_ref().unwrap();
        assert_eq!(text(ret.span), "return x");

        let src = "local function f(a) return -a .. 'x' end";
        let text = |s: Span| &src[s.start..s.end];
        let chunk = ok(src);
        let Stat::LocalFunction { func, span, .. } = &chunk.block.stats[0] else {
            panic!()
        };
        assert_eq!(text(*span), src);
        assert_eq!(text(func.span), "function f(a) return -a .. 'x' end");
        let ret = func.block.ret.as_ref().unwrap();
        assert_eq!(text(ret.exprs[0].span()), "-a .. 'x'");

        let src = "if a then\n  b()\nelseif c then\nelse d = (1) end";
        let text = |s: Span| &src[s.start..s.end];
        let chunk = ok(src);
        let Stat::If {
            arms,
            otherwise,
            span,
        } = &chunk.block.stats[0]
        else {
            panic!()
        };
        assert_eq!(text(*span), src);
        assert_eq!(text(arms[0].1.span), "b()");
        let before_else = src.find("\nelse d").unwrap() + 1;
        assert_eq!(arms[1].1.span, Span::new(before_else, before_else)); // empty: before `else`
        let Stat::Assign { exprs, .. } = &otherwise.as_ref().unwrap().stats[0] else {
            panic!()
        };
        assert_eq!(text(exprs[0].span()), "(1)");

        // Shebang: offsets stay relative to the whole source.
        let src = "#!lua flags=no-writes\nreturn 1";
        let text = |s: Span| &src[s.start..s.end];
        let chunk = ok(src);
        assert_eq!(text(chunk.block.ret.unwrap().span), "return 1");
    }

    #[test]
    fn statements() {
        let chunk = ok("local a, b = 1\n\
             a, b.c, d[1] = 1, 2\n\
             f()\n\
             o:m()\n\
             do end\n\
             while a do break end\n\
             repeat local x until x\n\
             if a then elseif b then else end\n\
             for i = 1, 2, 3 do end\n\
             for k, v in pairs(t) do end\n\
             function a.b.c:d(x, ...) return self end\n\
             local function g() end;\n\
             return");
        let kinds: Vec<&str> = chunk
            .block
            .stats
            .iter()
            .map(|s| match s {
                Stat::Local { .. } => "local",
                Stat::LocalFunction { .. } => "local function",
                Stat::Function { .. } => "function",
                Stat::Assign { .. } => "assign",
                Stat::Call(_) => "call",
                Stat::Do(_) => "do",
                Stat::While { .. } => "while",
                Stat::Repeat { .. } => "repeat",
                Stat::If { .. } => "if",
                Stat::NumericFor { .. } => "for=",
                Stat::GenericFor { .. } => "for in",
                Stat::Break(_) => "break",
            })
            .collect();
        assert_eq!(
            kinds,
            [
                "local",
                "assign",
                "call",
                "call",
                "do",
                "while",
                "repeat",
                "if",
                "for=",
                "for in",
                "function",
                "local function"
            ]
        );
        assert!(chunk.block.ret.as_ref().unwrap().exprs.is_empty());
        let Stat::Function { name, func, .. } = &chunk.block.stats[10] else {
            panic!()
        };
        assert_eq!(
            name.path
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
        assert_eq!(name.method.as_ref().unwrap().text, "d");
        assert_eq!(func.params.len(), 1);
        assert!(func.is_vararg);
    }

    #[test]
    fn accepted() {
        for src in ACCEPTED {
            ok(src);
        }
    }

    #[test]
    fn syntax_errors() {
        for (src, message) in SYNTAX_ERRORS {
            assert_eq!(err(src), *message, "{src:?}");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_belong_in_strings_and_comments() {
        // As the server reads them: any byte in a string, short or long,
        // and in a comment, line or long.
        for src in [
            &b"return '\xff\xfe'"[..],
            b"return \"a\xc3(\"",
            b"return [[\x80\n\xff]]",
            b"-- \xff\nreturn 1",
            b"--[[ \xfe\r\xff ]] return 1",
            b"#!lua flags=no-writes \xff\nreturn 1",
        ] {
            if let Err(error) = parse(src) {
                panic!("{}: {error}", String::from_utf8_lossy(src));
            }
        }
        // Elsewhere Lua reads a byte as a token of its own, which no rule
        // takes; it quotes the byte raw, which reads as U+FFFD.
        let error = parse(b"return \xff").unwrap_err();
        assert_eq!(error.message, "unexpected symbol near '\u{fffd}'");
        assert_eq!(error.span, Span::new(7, 8));
        let error = parse(b"local x = 1 \xc3( 2").unwrap_err();
        assert_eq!(error.message, "unexpected symbol near '\u{fffd}'");
        assert_eq!(error.span, Span::new(12, 13));
        // A name ends at the first byte that is not ASCII.
        let error = parse(b"local a\xe9 = 1").unwrap_err();
        assert_eq!(error.message, "unexpected symbol near '\u{fffd}'");
    }

    #[test]
    fn error_spans() {
        assert_eq!(
            err_span("x = = 1"),
            ("unexpected symbol near '='".into(), "=")
        );
        assert_eq!(
            err_span("if x then"),
            ("'end' expected near '<eof>'".into(), "")
        );
        assert_eq!(err_span("if x then").1.len(), 0);
        assert_eq!(parse("if x then").unwrap_err().span, Span::new(9, 9));
        assert_eq!(err_span("x = 'abc' 'd'").1, "'d'");
        assert_eq!(err_span("x = f\n(1)").1, "(");
        assert_eq!(err_span("local x = \"ab\ncd\"").1, "\"ab");
    }

    #[test]
    fn lexer_errors_come_in_reading_order() {
        // The syntax error comes before the malformed number after it...
        assert_eq!(err("x = = 3x"), "unexpected symbol near '='");
        // ... but a read-ahead token is read before the field is parsed.
        assert_eq!(err("x = {a 3x}"), "malformed number near '3x'");
    }

    #[test]
    fn limits() {
        let parens = |k: usize| format!("x = {}1{}", "(".repeat(k), ")".repeat(k));
        ok(&parens(198));
        assert_eq!(err(&parens(199)), "chunk has too many syntax levels");
        let dos = |k: usize| format!("{}{}", "do ".repeat(k), "end ".repeat(k));
        ok(&dos(199));
        assert_eq!(err(&dos(200)), "chunk has too many syntax levels");
        let concat = |k: usize| format!("x = {}", vec!["a"; k].join(".."));
        ok(&concat(199));
        assert_eq!(err(&concat(200)), "chunk has too many syntax levels");
        let tables = |k: usize| format!("x = {}{}", "{".repeat(k), "}".repeat(k));
        ok(&tables(199));
        assert_eq!(err(&tables(200)), "chunk has too many syntax levels");
        let functions = |k: usize| format!("{}{}", "f(function() ".repeat(k), "end) ".repeat(k));
        ok(&functions(99));
        assert_eq!(err(&functions(100)), "chunk has too many syntax levels");

        let names = |k: usize| {
            (0..k)
                .map(|i| format!("a{i}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        ok(&format!("local {}", names(200)));
        assert_eq!(
            err(&format!("local {}", names(201))),
            "main function has more than 200 local variables"
        );
        assert_eq!(
            err(&format!("function f()\nlocal {} end", names(201))),
            "function at line 1 has more than 200 local variables"
        );
        ok(&format!("function f(...) local {} end", names(199)));
        assert_eq!(
            err(&format!("function f(...) local {} end", names(200))),
            "function at line 1 has more than 200 local variables"
        );
        ok(&format!("for i=1,2 do local {} end", names(196)));
        assert!(parse(&format!("for i=1,2 do local {} end", names(197))).is_err());
        ok(&format!(
            "local {} do local {} end local {}",
            names(100),
            names(100),
            names(100)
        ));

        ok(&format!("{} = 1", names(200)));
        assert_eq!(
            err(&format!("{} = 1", names(201))),
            "main function has more than 199 variables in assignment"
        );
        ok(&format!("do {} = 1 end", names(199)));
        assert_eq!(
            err(&format!("do {} = 1 end", names(200))),
            "main function has more than 198 variables in assignment"
        );
    }

    #[test]
    fn deep_nesting_fits_a_test_thread_stack() {
        // Tests run on 2 MiB threads, rustc's proc macros on 8 MiB: the
        // deepest scripts Lua accepts must fit easily, unoptimized. (At the
        // time of writing the deepest, 199 nested `if`s, takes about 0.6 MiB.)
        ok(&format!("x = {}1{}", "(".repeat(198), ")".repeat(198)));
        ok(&format!("x = {}{}", "{".repeat(198), "}".repeat(198)));
        ok(&format!("x = {}1", "- ".repeat(198)));
        ok(&format!("x = {}1", "not ".repeat(198)));
        ok(&format!(
            "{}{}",
            "f(function() ".repeat(99),
            "end) ".repeat(99)
        ));
        ok(&format!(
            "{}{}",
            "if x then ".repeat(199),
            "end ".repeat(199)
        ));
        ok(&format!("x = {}", vec!["a"; 199].join("^")));
        ok(&format!(
            "{}{}",
            "while x do ".repeat(199),
            "end ".repeat(199)
        ));
        ok(&format!(
            "{}{}",
            "repeat ".repeat(199),
            "until x ".repeat(199)
        ));
        ok(&format!("x = {}1{}", "f(".repeat(198), ")".repeat(198)));
        ok(&format!("x = {}1{}", "a[".repeat(198), "]".repeat(198)));
        ok(&format!(
            "{}{}",
            "x = function() ".repeat(99),
            "end ".repeat(99)
        ));
        ok(&format!(
            "{}{}",
            "function a.b:c() ".repeat(99),
            "end ".repeat(99)
        ));
        ok(&format!(
            "{}{}",
            "for i = 1, 2 do ".repeat(50),
            "end ".repeat(50)
        ));
        // One level more is an error, not a crash.
        assert_eq!(
            err(&format!(
                "{}{}",
                "if x then ".repeat(200),
                "end ".repeat(200)
            )),
            "chunk has too many syntax levels"
        );
    }
}
