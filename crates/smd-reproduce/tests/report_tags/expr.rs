//! The expressions of the tags: arithmetic over a CSV's columns, per row or aggregated.

use super::Row;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Agg {
    Sum,
    Min,
    Max,
    Mean,
    First,
    Last,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    Num(f64),
    Col(String),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
    Agg(Agg, Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Num(f64),
    Name(String),
    Op(char),
}

fn tokens(src: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            out.push(Token::Num(
                s.parse().map_err(|_| format!("bad number {s}"))?,
            ));
        } else if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Name(chars[start..i].iter().collect()));
        } else if "+-*/()".contains(c) {
            out.push(Token::Op(c));
            i += 1;
        } else {
            return Err(format!("unexpected {c:?} in the expression {src:?}"));
        }
    }
    Ok(out)
}

/// A recursive-descent parser over the tokens.
struct Parser {
    toks: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek_op(&self, ops: &str) -> Option<char> {
        match self.toks.get(self.at) {
            Some(Token::Op(c)) if ops.contains(*c) => Some(*c),
            _ => None,
        }
    }
    fn expect(&mut self, op: char) -> Result<(), String> {
        if self.peek_op(&op.to_string()).is_some() {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected {op:?}"))
        }
    }
    /// Operands joined by the left-associative operators `ops`.
    fn chain(
        &mut self,
        ops: &str,
        operand: fn(&mut Parser) -> Result<Expr, String>,
    ) -> Result<Expr, String> {
        let mut e = operand(self)?;
        while let Some(op) = self.peek_op(ops) {
            self.at += 1;
            e = Expr::Bin(op, Box::new(e), Box::new(operand(self)?));
        }
        Ok(e)
    }
    fn sum(&mut self) -> Result<Expr, String> {
        self.chain("+-", Parser::product)
    }
    fn product(&mut self) -> Result<Expr, String> {
        self.chain("*/", Parser::factor)
    }
    fn factor(&mut self) -> Result<Expr, String> {
        let tok = self.toks.get(self.at).cloned();
        self.at += 1;
        match tok {
            Some(Token::Num(v)) => Ok(Expr::Num(v)),
            Some(Token::Op('-')) => Ok(Expr::Neg(Box::new(self.factor()?))),
            Some(Token::Op('(')) => {
                let e = self.sum()?;
                self.expect(')')?;
                Ok(e)
            }
            Some(Token::Name(n)) if self.peek_op("(").is_some() => {
                let agg = match n.as_str() {
                    "sum" => Agg::Sum,
                    "min" => Agg::Min,
                    "max" => Agg::Max,
                    "mean" => Agg::Mean,
                    "first" => Agg::First,
                    "last" => Agg::Last,
                    _ => return Err(format!("unknown function {n}")),
                };
                self.at += 1;
                let e = self.sum()?;
                self.expect(')')?;
                Ok(Expr::Agg(agg, Box::new(e)))
            }
            Some(Token::Name(n)) => Ok(Expr::Col(n)),
            other => Err(format!("unexpected {other:?}")),
        }
    }
}

pub(crate) fn parse_expr(src: &str) -> Result<Expr, String> {
    let mut p = Parser {
        toks: tokens(src)?,
        at: 0,
    };
    let e = p.sum()?;
    if p.at != p.toks.len() {
        return Err(format!("trailing text in the expression {src:?}"));
    }
    Ok(e)
}

impl Expr {
    pub(crate) fn has_agg(&self) -> bool {
        match self {
            Expr::Num(_) | Expr::Col(_) => false,
            Expr::Neg(e) => e.has_agg(),
            Expr::Bin(_, a, b) => a.has_agg() || b.has_agg(),
            Expr::Agg(..) => true,
        }
    }

    /// `X_stat` for every `X_mean` (inside `min`/`max` for those two); whether any changed.
    pub(crate) fn with_stat(&self, stat: &str) -> (Expr, bool) {
        let rec = |e: &Expr| e.with_stat(stat);
        match self {
            Expr::Col(c) => match c.strip_suffix("_mean") {
                Some(stem) => {
                    let col = Expr::Col(format!("{stem}_{stat}"));
                    let e = match stat {
                        "min" => Expr::Agg(Agg::Min, Box::new(col)),
                        "max" => Expr::Agg(Agg::Max, Box::new(col)),
                        _ => col,
                    };
                    (e, true)
                }
                None => (self.clone(), false),
            },
            Expr::Num(_) => (self.clone(), false),
            Expr::Neg(e) => {
                let (e, ch) = rec(e);
                (Expr::Neg(Box::new(e)), ch)
            }
            Expr::Bin(op, a, b) => {
                let ((a, ca), (b, cb)) = (rec(a), rec(b));
                (Expr::Bin(*op, Box::new(a), Box::new(b)), ca || cb)
            }
            Expr::Agg(f, e) => {
                let (e, ch) = rec(e);
                (Expr::Agg(*f, Box::new(e)), ch)
            }
        }
    }

    /// The value on one row (no aggregates).
    pub(crate) fn on_row(&self, row: &Row) -> Result<f64, String> {
        match self {
            Expr::Num(v) => Ok(*v),
            Expr::Col(c) => {
                let text = row.get(c.as_str()).ok_or(format!("no column {c}"))?;
                text.parse()
                    .map_err(|_| format!("column {c}: {text:?} is not a number"))
            }
            Expr::Neg(e) => Ok(-e.on_row(row)?),
            Expr::Bin(op, a, b) => Ok(apply(*op, a.on_row(row)?, b.on_row(row)?)),
            Expr::Agg(..) => Err("an aggregate inside an aggregate".into()),
        }
    }

    /// The value over all rows (every column inside an aggregate).
    pub(crate) fn on_rows(&self, rows: &[&Row]) -> Result<f64, String> {
        match self {
            Expr::Num(v) => Ok(*v),
            Expr::Col(c) => Err(format!("column {c} outside an aggregate")),
            Expr::Neg(e) => Ok(-e.on_rows(rows)?),
            Expr::Bin(op, a, b) => Ok(apply(*op, a.on_rows(rows)?, b.on_rows(rows)?)),
            Expr::Agg(f, e) => {
                let v = rows
                    .iter()
                    .map(|r| e.on_row(r))
                    .collect::<Result<Vec<f64>, String>>()?;
                let (Some(&first), Some(&last)) = (v.first(), v.last()) else {
                    return Err("no rows".into());
                };
                Ok(match f {
                    Agg::Sum => v.iter().sum(),
                    Agg::Min => v.iter().copied().fold(f64::INFINITY, f64::min),
                    Agg::Max => v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                    Agg::Mean => v.iter().sum::<f64>() / v.len() as f64,
                    Agg::First => first,
                    Agg::Last => last,
                })
            }
        }
    }
}

fn apply(op: char, a: f64, b: f64) -> f64 {
    match op {
        '+' => a + b,
        '-' => a - b,
        '*' => a * b,
        _ => a / b,
    }
}
