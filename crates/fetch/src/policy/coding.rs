//! Content codings (RFC 9110 §8.4): the one place where a response body is
//! decoded, for the HTTP client and for callers that hold a whole body.

use std::fmt;

use brotli_decompressor::{
    BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc,
};
use flate2::{Crc, Decompress, FlushDecompress, Status};

/// The most content codings one body may stack (`identity` not counted).
/// Each one costs a decoder's state, so a header naming thousands is
/// refused rather than obeyed.
pub const MAX_CODINGS: usize = 4;

/// How many bytes each decoder hands on to the next at a time.
const BUF: usize = 16 * 1024;

/// The longest gzip file name or comment accepted: the fields are skipped,
/// never kept, but a header that never ends is no body.
const MAX_GZIP_FIELD: usize = 64 * 1024;

/// What kind of [`Undecodable`] body this is.
#[derive(Clone, Copy, Debug, Eq, Hash, PartialEq)]
#[non_exhaustive]
pub enum UndecodableKind {
    /// A content coding this crate does not decode (`compress`, `zstd`,
    /// …), or more than [`MAX_CODINGS`] stacked.
    Unsupported,
    /// The body is not valid in its coding: a bad header or checksum, a
    /// stream that ends early or has data after its end.
    Corrupt,
}

/// A body that cannot be decoded: its rules are unknown, so a fetch treats
/// the response as broken (unreachable: complete disallow, RFC 9309
/// §2.3.1.4), never as a robots.txt to parse.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Undecodable {
    kind: UndecodableKind,
    message: String,
}

impl Undecodable {
    fn unsupported(message: String) -> Undecodable {
        Undecodable { kind: UndecodableKind::Unsupported, message }
    }

    fn corrupt(coding: &str, what: impl fmt::Display) -> Undecodable {
        Undecodable {
            kind: UndecodableKind::Corrupt,
            message: format!("cannot decode the {coding} content: {what}"),
        }
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> UndecodableKind {
        self.kind
    }
}

/// `unsupported content coding: compress`, `cannot decode the gzip
/// content: checksum mismatch`, …
impl fmt::Display for Undecodable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Undecodable {}

/// A content coding this crate decodes.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Coding {
    Gzip,
    Deflate,
    Brotli,
}

/// The codings named by a `Content-Encoding` value, in the order they were
/// applied: names compare without regard to case, `x-gzip` is `gzip`,
/// `identity` and empty list elements are skipped.
fn parse_codings(value: &str) -> Result<Vec<Coding>, Undecodable> {
    let mut out = Vec::new();
    for name in value.split(',') {
        let name = name.trim_matches([' ', '\t']);
        let coding = match name.to_ascii_lowercase().as_str() {
            "" | "identity" => continue,
            // RFC 9110 §8.4.1.3: "A recipient SHOULD consider "x-gzip" to
            // be equivalent to "gzip"."
            "gzip" | "x-gzip" => Coding::Gzip,
            "deflate" => Coding::Deflate,
            "br" => Coding::Brotli,
            _ => {
                let shown: String = name.chars().take(64).collect();
                let more = if shown.len() < name.len() { "…" } else { "" };
                return Err(Undecodable::unsupported(format!(
                    "unsupported content coding: {shown}{more}"
                )));
            }
        };
        if out.len() == MAX_CODINGS {
            return Err(Undecodable::unsupported(format!(
                "too many content codings (more than {MAX_CODINGS})"
            )));
        }
        out.push(coding);
    }
    Ok(out)
}

/// Decodes a whole body coded as `codings` (a `Content-Encoding` value;
/// several headers joined with `,`), keeping at most `cap` decoded bytes,
/// and returns them with true if and only if the content went on past
/// `cap` (the rest was not decoded).
///
/// > Content-Encoding = #content-coding — RFC 9110 §8.4
///
/// > If one or more encodings have been applied to a representation, the
/// > sender that applied the encodings MUST generate a Content-Encoding
/// > header field that lists the content codings in the order in which
/// > they were applied. — RFC 9110 §8.4
///
/// Coding names compare without regard to case (§8.4.1); `x-gzip` is
/// `gzip` (§8.4.1.3); `identity` changes nothing; stacked codings are
/// undone last first. `gzip` (several members allowed), `deflate` (a zlib
/// stream, or the raw deflate some servers send under this name) and `br`
/// are decoded. An empty body is empty in every coding this crate decodes.
///
/// Memory and time stay bounded whatever the input: at most `cap` bytes
/// are kept, decoding stops once they are, gzip header fields are skipped
/// rather than stored, and at most [`MAX_CODINGS`] codings are stacked. To
/// decode a body as it arrives, use a [`Decoder`].
///
/// # Errors
///
/// [`Undecodable`] if a coding is not one of these, or the body is not
/// valid in its coding (a bad header or checksum, a stream cut short or
/// followed by other data). A body that ends past `cap` is only checked
/// up to there: content made before a break that passes `cap` cuts the
/// body there. (A `br` stream may hold such content back until it needs
/// more input: one that breaks just past `cap` may be cut when it comes
/// in pieces and undecodable when it comes whole.)
///
/// # Example
///
/// ```
/// use std::io::Write;
/// use robotrules_fetch::policy;
///
/// let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
/// gz.write_all(b"User-agent: *\nDisallow: /\n")?;
/// let raw = gz.finish()?;
///
/// let (body, cut) = policy::decode("X-GZIP", &raw, 500 * 1024)?;
/// assert_eq!((&body[..], cut), (&b"User-agent: *\nDisallow: /\n"[..], false));
/// let (body, cut) = policy::decode("identity, gzip", &raw, 13)?;
/// assert_eq!((&body[..], cut), (&b"User-agent: *"[..], true));
/// let error = policy::decode("compress", &raw, 500 * 1024).unwrap_err();
/// assert_eq!(error.to_string(), "unsupported content coding: compress");
/// assert!(policy::decode("gzip", &raw[..raw.len() - 1], 500 * 1024).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn decode(
    codings: &str,
    raw: &[u8],
    cap: usize,
) -> Result<(Vec<u8>, bool), Undecodable> {
    let mut decoder = Decoder::new(codings, cap)?;
    decoder.push(raw)?;
    decoder.finish()
}

/// [`decode`], a piece at a time: for a body read from the network, so
/// that reading can stop as soon as `cap` decoded bytes are kept.
///
/// # Example
///
/// ```
/// use robotrules_fetch::policy::Decoder;
///
/// let mut decoder = Decoder::new("identity", 4)?;
/// assert!(!decoder.push(b"abc")?);
/// assert!(decoder.push(b"def")?); // cut: stop reading
/// assert_eq!(decoder.finish()?, (b"abcd".to_vec(), true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Decoder {
    /// The decoders, first applied last: `layers[0]` reads the body.
    layers: Vec<Layer>,
    /// How many bytes the layers but the last may still hand on.
    budget: usize,
    body: Vec<u8>,
    cap: usize,
    cut: bool,
    raw: u64,
}

impl fmt::Debug for Decoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decoder")
            .field("layers", &self.layers.len())
            .field("body", &self.body.len())
            .field("cap", &self.cap)
            .field("cut", &self.cut)
            .finish()
    }
}

impl Decoder {
    /// A decoder for a body coded as `codings` (a `Content-Encoding`
    /// value; `""` for none) that keeps at most `cap` decoded bytes.
    ///
    /// # Errors
    ///
    /// [`Undecodable`] if a coding is not supported (see [`decode`]).
    pub fn new(codings: &str, cap: usize) -> Result<Decoder, Undecodable> {
        let applied = parse_codings(codings)?;
        let layers: Vec<Layer> =
            applied.iter().rev().map(Layer::new).collect();
        // Coded bytes between two stacked decoders are at most a little
        // more than the content they code: far more, and the codings are
        // a bomb (a gzip of a gzip of zeros, of empty blocks), stopped
        // before it costs much time.
        let budget = cap.saturating_mul(4).saturating_add(1 << 16);
        Ok(Decoder {
            layers,
            budget,
            body: Vec::new(),
            cap,
            cut: false,
            raw: 0,
        })
    }

    /// Decodes the next piece of the body, and returns true if and only if
    /// the content went on past the cap: it is cut, the rest must not be
    /// read. After that, pieces are ignored.
    ///
    /// # Errors
    ///
    /// [`Undecodable`] if the body is not valid in its coding. The decoder
    /// must not be used after an error.
    pub fn push(&mut self, raw: &[u8]) -> Result<bool, Undecodable> {
        if self.cut {
            return Ok(true);
        }
        self.raw += raw.len() as u64;
        let mut out = Out {
            body: &mut self.body,
            cap: self.cap,
            budget: &mut self.budget,
        };
        self.cut = feed(&mut self.layers, &mut out, raw)?;
        Ok(self.cut)
    }

    /// The content decoded so far (at most the cap).
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// Returns true if and only if the content went on past the cap.
    pub fn is_cut(&self) -> bool {
        self.cut
    }

    /// Returns true if and only if the coded content is known to have
    /// ended: the coding applied first reached the end of its stream (a
    /// further gzip member would still be decoded). Always false without
    /// a coding: then only the end of the body says.
    pub fn is_ended(&self) -> bool {
        self.layers.last().is_some_and(Layer::is_ended)
    }

    /// Ends the body, and returns the content (at most the cap) with true
    /// if and only if it went on past the cap.
    ///
    /// # Errors
    ///
    /// [`Undecodable`] if a coded stream ends early. A cut body is not
    /// checked past the cap; an empty body is empty in every coding.
    pub fn finish(self) -> Result<(Vec<u8>, bool), Undecodable> {
        if !self.cut && self.raw > 0 {
            for layer in &self.layers {
                if !layer.is_finished() {
                    return Err(Undecodable::corrupt(
                        layer.name(),
                        "the stream ends early",
                    ));
                }
            }
        }
        Ok((self.body, self.cut))
    }
}

/// Where the last decoder's bytes go, and the budget of the others.
struct Out<'a> {
    body: &'a mut Vec<u8>,
    cap: usize,
    budget: &'a mut usize,
}

/// Runs `input` through `layers` into `out`; true if the cap was passed.
fn feed(
    layers: &mut [Layer],
    out: &mut Out<'_>,
    mut input: &[u8],
) -> Result<bool, Undecodable> {
    let Some((first, rest)) = layers.split_first_mut() else {
        return Ok(super::take(out.body, input, out.cap));
    };
    let mut buf = std::mem::take(&mut first.buf);
    let result = loop {
        let (used, made) = match first.step(input, &mut buf) {
            Ok(step) => step,
            // What was made before the break may pass the cap: then the
            // body is cut there, and the break lies past what is read.
            Err((e, made)) => match feed(rest, out, &buf[..made]) {
                Ok(true) if made > 0 => break Ok(true),
                _ => break Err(e),
            },
        };
        input = &input[used..];
        if made > 0 {
            if !rest.is_empty() {
                if made > *out.budget {
                    break Err(Undecodable::corrupt(
                        first.name(),
                        "it expands far beyond the content it codes",
                    ));
                }
                *out.budget -= made;
            }
            match feed(rest, out, &buf[..made]) {
                Ok(false) => {}
                other => break other,
            }
        }
        if used == 0 && made == 0 {
            break Ok(false);
        }
    };
    first.buf = buf;
    result
}

/// One decoder of a stack, with its output buffer.
struct Layer {
    state: State,
    buf: Vec<u8>,
}

enum State {
    Gzip(Box<Gzip>),
    Deflate(Box<Deflate>),
    Brotli(Box<Brotli>),
}

impl Layer {
    fn new(coding: &Coding) -> Layer {
        let state = match coding {
            Coding::Gzip => State::Gzip(Box::new(Gzip::new())),
            Coding::Deflate => State::Deflate(Box::new(Deflate::new())),
            Coding::Brotli => State::Brotli(Box::new(Brotli::new())),
        };
        Layer { state, buf: vec![0; BUF] }
    }

    fn name(&self) -> &'static str {
        match self.state {
            State::Gzip(_) => "gzip",
            State::Deflate(_) => "deflate",
            State::Brotli(_) => "br",
        }
    }

    /// Decodes from `input` into `out`: the bytes used and made. Neither
    /// is zero while progress can be made.
    fn step(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<(usize, usize), Broke> {
        match &mut self.state {
            State::Gzip(g) => g.step(input, out),
            State::Deflate(d) => d.step(input, out),
            State::Brotli(b) => b.step(input, out),
        }
    }

    /// The stream (a gzip member) ended: no more content unless another
    /// member starts.
    fn is_ended(&self) -> bool {
        match &self.state {
            State::Gzip(g) => matches!(g.at, Gz::Trailer { .. } | Gz::Between),
            State::Deflate(d) => d.ended,
            State::Brotli(b) => b.ended,
        }
    }

    /// The whole stream, checksums included, was read.
    fn is_finished(&self) -> bool {
        match &self.state {
            State::Gzip(g) => matches!(g.at, Gz::Between),
            _ => self.is_ended(),
        }
    }
}

/// Why a decoder stopped, and how many bytes it made before (they are
/// content: whether a body goes past the cap before it breaks does not
/// depend on how it was split into pieces).
type Broke = (Undecodable, usize);

/// A step of a stream that ended: nothing, or the error of data after
/// its end.
fn after_end(coding: &str, input: &[u8]) -> Result<(usize, usize), Broke> {
    match input.is_empty() {
        true => Ok((0, 0)),
        false => Err((
            Undecodable::corrupt(coding, "data after the end of the stream"),
            0,
        )),
    }
}

/// Inflates from `input` into `out` with `z`: the bytes used and made, and
/// whether the stream ended.
fn inflate(
    z: &mut Decompress,
    coding: &str,
    input: &[u8],
    out: &mut [u8],
) -> Result<(usize, usize, bool), Broke> {
    let (before_in, before_out) = (z.total_in(), z.total_out());
    let status = z.decompress(input, out, FlushDecompress::None);
    let used = (z.total_in() - before_in) as usize;
    let made = (z.total_out() - before_out) as usize;
    match status {
        Ok(status) => Ok((used, made, status == Status::StreamEnd)),
        Err(e) => Err((Undecodable::corrupt(coding, e), made)),
    }
}

const FHCRC: u8 = 2;
const FEXTRA: u8 = 4;
const FNAME: u8 = 8;
const FCOMMENT: u8 = 16;

/// Where a gzip member is (RFC 1952 §2.3).
enum Gz {
    /// The fixed ten bytes: ID1 ID2 CM FLG MTIME XFL OS.
    Fixed {
        got: [u8; 10],
        n: usize,
    },
    /// XLEN.
    ExtraLen {
        flags: u8,
        got: [u8; 2],
        n: usize,
    },
    Extra {
        flags: u8,
        left: usize,
    },
    Name {
        flags: u8,
        len: usize,
    },
    Comment {
        flags: u8,
        len: usize,
    },
    HeaderCrc {
        left: usize,
    },
    Body,
    /// CRC32 and ISIZE.
    Trailer {
        got: [u8; 8],
        n: usize,
    },
    /// After a member: another one, or zero padding.
    Between,
}

/// The header field after `done` (0: the fixed part) that `flags` sets.
fn field_after(flags: u8, done: u8) -> Gz {
    const ORDER: [u8; 4] = [FEXTRA, FNAME, FCOMMENT, FHCRC];
    let start = ORDER.iter().position(|&f| f == done).map_or(0, |i| i + 1);
    match ORDER[start..].iter().find(|&&f| flags & f != 0) {
        Some(&FEXTRA) => Gz::ExtraLen { flags, got: [0; 2], n: 0 },
        Some(&FNAME) => Gz::Name { flags, len: 0 },
        Some(&FCOMMENT) => Gz::Comment { flags, len: 0 },
        Some(_) => Gz::HeaderCrc { left: 2 },
        None => Gz::Body,
    }
}

struct Gzip {
    at: Gz,
    z: Decompress,
    crc: Crc,
}

impl Gzip {
    fn new() -> Gzip {
        Gzip {
            at: Gz::Fixed { got: [0; 10], n: 0 },
            z: Decompress::new(false),
            crc: Crc::new(),
        }
    }

    fn step(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<(usize, usize), Broke> {
        let bad = |what: &str| (Undecodable::corrupt("gzip", what), 0);
        let mut used = 0;
        loop {
            let rest = &input[used..];
            if let Gz::Body = self.at {
                let (u, made, end) = inflate(&mut self.z, "gzip", rest, out)?;
                self.crc.update(&out[..made]);
                if end {
                    self.z.reset(false);
                    self.at = Gz::Trailer { got: [0; 8], n: 0 };
                }
                return Ok((used + u, made));
            }
            let Some(&byte) = rest.first() else { return Ok((used, 0)) };
            match &mut self.at {
                Gz::Fixed { got, n } => {
                    got[*n] = byte;
                    *n += 1;
                    used += 1;
                    if (*n == 1 && byte != 0x1f) || (*n == 2 && byte != 0x8b) {
                        return Err(bad("not gzip data"));
                    }
                    if *n == 3 && byte != 8 {
                        return Err(bad("unknown compression method"));
                    }
                    if *n == 10 {
                        let flags = got[3];
                        if flags & 0xe0 != 0 {
                            return Err(bad("reserved header flags set"));
                        }
                        self.at = field_after(flags, 0);
                    }
                }
                Gz::ExtraLen { flags, got, n } => {
                    got[*n] = byte;
                    *n += 1;
                    used += 1;
                    if *n == 2 {
                        let left = usize::from(u16::from_le_bytes(*got));
                        self.at = Gz::Extra { flags: *flags, left };
                    }
                }
                Gz::Extra { flags, left } => {
                    let skip = (*left).min(rest.len());
                    *left -= skip;
                    used += skip;
                    if *left == 0 {
                        self.at = field_after(*flags, FEXTRA);
                    }
                }
                Gz::Name { flags, len } | Gz::Comment { flags, len } => {
                    let (flags, len) = (*flags, *len);
                    let is_name = matches!(self.at, Gz::Name { .. });
                    let nul = rest.iter().position(|&b| b == 0);
                    let skip = nul.map_or(rest.len(), |i| i + 1);
                    if len + skip > MAX_GZIP_FIELD {
                        return Err(bad(if is_name {
                            "header file name over 64 KiB"
                        } else {
                            "header comment over 64 KiB"
                        }));
                    }
                    used += skip;
                    self.at = match (nul, is_name) {
                        (Some(_), true) => field_after(flags, FNAME),
                        (Some(_), false) => field_after(flags, FCOMMENT),
                        (None, true) => Gz::Name { flags, len: len + skip },
                        (None, false) => {
                            Gz::Comment { flags, len: len + skip }
                        }
                    };
                }
                Gz::HeaderCrc { left } => {
                    *left -= 1;
                    used += 1;
                    if *left == 0 {
                        self.at = Gz::Body;
                    }
                }
                Gz::Trailer { got, n } => {
                    got[*n] = byte;
                    *n += 1;
                    used += 1;
                    if *n == 8 {
                        let [c0, c1, c2, c3, s0, s1, s2, s3] = *got;
                        let crc = u32::from_le_bytes([c0, c1, c2, c3]);
                        let size = u32::from_le_bytes([s0, s1, s2, s3]);
                        if crc != self.crc.sum() || size != self.crc.amount() {
                            return Err(bad("checksum mismatch"));
                        }
                        self.crc.reset();
                        self.at = Gz::Between;
                    }
                }
                Gz::Between => match byte {
                    0 => used += 1,
                    0x1f => self.at = Gz::Fixed { got: [0; 10], n: 0 },
                    _ => return Err(bad("data after the end of the stream")),
                },
                Gz::Body => unreachable!("handled above"),
            }
        }
    }
}

/// `deflate`: RFC 9110 §8.4.1.2 says a zlib stream (RFC 1950); some
/// servers send raw deflate (RFC 1951). The first two bytes tell, as
/// browsers do.
struct Deflate {
    /// The first byte, when it came alone.
    first: Option<u8>,
    z: Option<Decompress>,
    ended: bool,
}

impl Deflate {
    fn new() -> Deflate {
        Deflate { first: None, z: None, ended: false }
    }

    fn step(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<(usize, usize), Broke> {
        if self.ended {
            return after_end("deflate", input);
        }
        if self.z.is_none() {
            let head = match (self.first, input) {
                (_, []) => return Ok((0, 0)),
                (None, [one]) => {
                    self.first = Some(*one);
                    return Ok((1, 0));
                }
                (Some(a), [b, ..]) => [a, *b],
                (None, [a, b, ..]) => [*a, *b],
            };
            // RFC 1950 §2.2: CM 8, a window of at most 32 KiB, and
            // CMF·256 + FLG a multiple of 31.
            let check = (u16::from(head[0]) << 8) | u16::from(head[1]);
            let zlib =
                head[0] & 0x0f == 8 && head[0] >> 4 <= 7 && check % 31 == 0;
            let mut z = Decompress::new(zlib);
            if let Some(first) = self.first.take() {
                // One byte never completes a symbol: it is taken whole and
                // makes nothing.
                let (used, _, _) = inflate(&mut z, "deflate", &[first], out)?;
                if used != 1 {
                    let e = Undecodable::corrupt(
                        "deflate",
                        "invalid stream start",
                    );
                    return Err((e, 0));
                }
            }
            self.z = Some(z);
        }
        let Some(z) = &mut self.z else { return Ok((0, 0)) };
        let (used, made, end) = inflate(z, "deflate", input, out)?;
        self.ended = end;
        Ok((used, made))
    }
}

struct Brotli {
    state: BrotliState<StandardAlloc, StandardAlloc, StandardAlloc>,
    ended: bool,
}

impl Brotli {
    fn new() -> Brotli {
        // RFC 7932 `br`: windows of at most 16 MiB (no large-window
        // streams, which are not `br` and would need more memory).
        let state = BrotliState::new_strict(
            StandardAlloc::default(),
            StandardAlloc::default(),
            StandardAlloc::default(),
        );
        Brotli { state, ended: false }
    }

    fn step(
        &mut self,
        input: &[u8],
        out: &mut [u8],
    ) -> Result<(usize, usize), Broke> {
        if self.ended {
            return after_end("br", input);
        }
        let (mut available_in, mut used) = (input.len(), 0);
        let (mut available_out, mut made, mut total) = (out.len(), 0, 0);
        let result = BrotliDecompressStream(
            &mut available_in,
            &mut used,
            input,
            &mut available_out,
            &mut made,
            out,
            &mut total,
            &mut self.state,
        );
        match result {
            BrotliResult::ResultSuccess => self.ended = true,
            BrotliResult::ResultFailure => {
                return Err((
                    Undecodable::corrupt("br", "invalid stream"),
                    made,
                ))
            }
            BrotliResult::NeedsMoreInput | BrotliResult::NeedsMoreOutput => {}
        }
        Ok((used, made))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const TEXT: &[u8] = b"User-agent: *\nDisallow: /\n";

    #[test]
    fn past_the_cap_before_a_break_is_cut_however_the_body_comes() {
        // Raw deflate that makes a byte, then breaks.
        let raw = [0x0a, 0x23, 0x0a, 0x35, 0x01];
        assert!(decode("deflate", &raw, 64).is_err());
        let whole = decode("deflate", &raw, 0);
        let mut pieces = Decoder::new("deflate", 0).unwrap();
        assert!(pieces.push(&raw[..2]).unwrap());
        assert_eq!(whole, pieces.finish());
        assert_eq!(whole, Ok((Vec::new(), true)));
        // Text that a gzip member's bad checksum follows: cut at the cap,
        // it is read; whole, it is not.
        let mut gz = gzip(TEXT);
        let n = gz.len();
        gz[n - 8] ^= 1;
        assert!(decode("gzip", &gz, 500).is_err());
        assert_eq!(decode("gzip", &gz, 13), Ok((TEXT[..13].to_vec(), true)));
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e =
            flate2::write::GzEncoder::new(Vec::new(), Default::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e =
            flate2::write::ZlibEncoder::new(Vec::new(), Default::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn raw_deflate(data: &[u8]) -> Vec<u8> {
        let mut e =
            flate2::write::DeflateEncoder::new(Vec::new(), Default::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn brotli(data: &[u8]) -> Vec<u8> {
        // A metablock of stored bytes: ISLAST=0, MNIBBLES=4, MLEN-1,
        // ISUNCOMPRESSED=1; then an empty last metablock.
        assert!(!data.is_empty() && data.len() <= 1 << 16);
        let mut bits = Bits::default();
        bits.put(0, 1); // WBITS = 16
        bits.put(0, 1); // ISLAST
        bits.put(0, 2); // MNIBBLES = 4
        bits.put(data.len() as u64 - 1, 16);
        bits.put(1, 1); // ISUNCOMPRESSED
        bits.align();
        bits.bytes.extend_from_slice(data);
        bits.put(1, 1); // ISLAST
        bits.put(1, 1); // ISLASTEMPTY
        bits.align();
        bits.bytes
    }

    #[derive(Default)]
    struct Bits {
        bytes: Vec<u8>,
        n: u32,
    }

    impl Bits {
        fn put(&mut self, value: u64, count: u32) {
            for i in 0..count {
                if self.n.is_multiple_of(8) {
                    self.bytes.push(0);
                }
                let last = self.bytes.len() - 1;
                self.bytes[last] |= (((value >> i) & 1) as u8) << (self.n % 8);
                self.n += 1;
            }
        }

        fn align(&mut self) {
            self.n = self.n.div_ceil(8) * 8;
        }
    }

    macro_rules! decodes {
        ($codings:expr, $raw:expr) => {
            assert_eq!(
                decode($codings, &$raw, 1 << 20),
                Ok((TEXT.to_vec(), false)),
                "{}",
                $codings
            )
        };
    }

    macro_rules! refuses {
        ($codings:expr, $raw:expr, $kind:ident, $message:expr) => {
            let e = decode($codings, &$raw, 1 << 20).unwrap_err();
            assert_eq!(e.kind(), UndecodableKind::$kind, "{}", $codings);
            assert_eq!(e.to_string(), $message, "{}", $codings);
        };
    }

    #[test]
    fn names_are_case_insensitive_and_stack() {
        decodes!("gzip", gzip(TEXT));
        decodes!("GZIP", gzip(TEXT));
        decodes!("Gzip", gzip(TEXT));
        decodes!("x-gzip", gzip(TEXT));
        decodes!("X-Gzip", gzip(TEXT));
        decodes!("identity, gzip", gzip(TEXT));
        decodes!(" gzip ,identity,, ", gzip(TEXT));
        decodes!("gzip, gzip", gzip(&gzip(TEXT)));
        decodes!("deflate", zlib(TEXT));
        decodes!("Deflate", raw_deflate(TEXT));
        decodes!("br", brotli(TEXT));
        decodes!("BR", brotli(TEXT));
        decodes!("gzip, br", brotli(&gzip(TEXT)));
        decodes!("br, deflate", zlib(&brotli(TEXT)));
        decodes!("", TEXT);
        decodes!("identity", TEXT);
        decodes!("IDENTITY", TEXT);
    }

    #[test]
    fn unknown_codings_and_bad_bodies_are_refused() {
        refuses!(
            "compress",
            TEXT,
            Unsupported,
            "unsupported content coding: compress"
        );
        refuses!(
            "gzip, zstd",
            TEXT,
            Unsupported,
            "unsupported content coding: zstd"
        );
        refuses!(
            "gzip,gzip,gzip,gzip,gzip",
            TEXT,
            Unsupported,
            "too many content codings (more than 4)"
        );
        refuses!(
            "gzip",
            TEXT,
            Corrupt,
            "cannot decode the gzip content: not gzip data"
        );
        let gz = gzip(TEXT);
        refuses!(
            "gzip",
            gz[..gz.len() - 1],
            Corrupt,
            "cannot decode the gzip content: the stream ends early"
        );
        let mut bad = gz.clone();
        let n = bad.len();
        bad[n - 8] ^= 1;
        refuses!(
            "gzip",
            bad,
            Corrupt,
            "cannot decode the gzip content: checksum mismatch"
        );
        let mut trailing = gz.clone();
        trailing.extend_from_slice(b"xyz");
        refuses!(
            "gzip",
            trailing,
            Corrupt,
            "cannot decode the gzip content: data after the end of the stream"
        );
        // The gzip of a gzip, sent as one gzip: the inner bytes are no text.
        let (inner, _) = decode("gzip", &gzip(&gz), 1 << 20).unwrap();
        assert_eq!(inner, gz);
        // The reason after the colon is the inflate library's own.
        let e = decode("deflate", b"\x78\x9c\xff\xff", 1 << 20).unwrap_err();
        assert_eq!(e.kind(), UndecodableKind::Corrupt);
        assert!(e
            .to_string()
            .starts_with("cannot decode the deflate content: "));
        refuses!(
            "br",
            b"\xff\xff\xff\xff"[..],
            Corrupt,
            "cannot decode the br content: invalid stream"
        );
        let br = brotli(TEXT);
        refuses!(
            "br",
            br[..br.len() - 1],
            Corrupt,
            "cannot decode the br content: the stream ends early"
        );
    }

    #[test]
    fn members_padding_and_empty_bodies() {
        let mut two = gzip(b"User-agent: *\n");
        two.extend(gzip(b"Disallow: /\n"));
        decodes!("gzip", two);
        let mut padded = gzip(TEXT);
        padded.extend_from_slice(&[0, 0]);
        decodes!("gzip", padded);
        for codings in ["gzip", "deflate", "br", "gzip, br", ""] {
            assert_eq!(decode(codings, b"", 10), Ok((vec![], false)));
        }
    }

    #[test]
    fn header_fields_are_skipped_not_kept() {
        // FEXTRA, FNAME, FCOMMENT and FHCRC, in that order.
        let body = gzip(TEXT);
        let mut raw = body[..10].to_vec();
        raw[3] = FEXTRA | FNAME | FCOMMENT | FHCRC;
        raw.extend_from_slice(&[3, 0, b'a', b'b', b'c']);
        raw.extend_from_slice(b"robots.txt\0a comment\0");
        raw.extend_from_slice(&[0x12, 0x34]);
        raw.extend_from_slice(&body[10..]);
        decodes!("gzip", raw);
        // A name that never ends is refused at 64 KiB, whatever follows.
        let mut endless = body[..10].to_vec();
        endless[3] = FNAME;
        endless.resize(10 + MAX_GZIP_FIELD + 1, b'n');
        refuses!(
            "gzip",
            endless,
            Corrupt,
            "cannot decode the gzip content: header file name over 64 KiB"
        );
    }

    #[test]
    fn pieces_of_any_size_give_the_same_content() {
        let raw = brotli(&gzip(&zlib(TEXT)));
        for size in [1, 2, 3, 7, 64] {
            let mut d = Decoder::new("deflate, gzip, br", 1 << 20).unwrap();
            for piece in raw.chunks(size) {
                assert!(!d.push(piece).unwrap());
            }
            assert!(d.is_ended());
            assert_eq!(d.finish(), Ok((TEXT.to_vec(), false)), "{size}");
        }
        let mut d = Decoder::new("deflate", 100).unwrap();
        d.push(&raw_deflate(TEXT)[..1]).unwrap();
        d.push(&raw_deflate(TEXT)[1..]).unwrap();
        assert_eq!(d.finish(), Ok((TEXT.to_vec(), false)));
    }

    #[test]
    fn the_cap_applies_to_decoded_bytes() {
        let big = vec![b'\n'; 10 << 20];
        let raw = gzip(&big);
        assert!(raw.len() < 100 << 10);
        let (body, cut) = decode("gzip", &raw, 1000).unwrap();
        assert_eq!((body.len(), cut), (1000, true));
        // Exactly the cap is not cut.
        let (body, cut) = decode("gzip", &gzip(&big[..1000]), 1000).unwrap();
        assert_eq!((body.len(), cut), (1000, false));
        // A bomb inside a bomb stops at the cap.
        let nested = gzip(&gzip(&big));
        let (body, cut) = decode("gzip, gzip", &nested, 1000).unwrap();
        assert_eq!((body.len(), cut), (1000, true));
        // Inner coded bytes that make no content (empty stored blocks)
        // stop at the budget between the layers.
        let mut inner = gzip(b"")[..10].to_vec();
        for _ in 0..20_000 {
            inner.extend_from_slice(&[0, 0, 0, 0xff, 0xff]);
        }
        let e = decode("gzip, gzip", &gzip(&inner), 1000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot decode the gzip content: it expands far beyond the \
             content it codes"
        );
    }
}
