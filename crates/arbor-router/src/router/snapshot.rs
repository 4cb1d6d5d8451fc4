//! Binary snapshot of a router (`route:cache`): the matcher sources, the routes' shapes and metadata,
//! and the flattened tree (`flat.rs`), so a load skips parsing, conflict and shadowing checks, tree
//! building and flattening. What only registration needs (the tree it builds, the conflict index) is
//! not stored: the first insert into a loaded router rebuilds both from the patterns. Regexes are
//! compiled on first use, not at load (a start that answers its first requests before every
//! constrained route is asked for never compiles most of them; a source that does not compile, which
//! only a forged snapshot can hold, matches nothing). The routes' metadata is checked at load and
//! decoded on first read (`RouteList`): serving reads only the shapes. Loading never panics: every
//! count, index and string is checked.
//!
//! Layout (little-endian): magic `ARBORRT\0`, version `u16`, reserved `u16`, payload length `u32`,
//! FNV-1a 64 checksum of the payload `u64`, then the payload: options, methods, matcher specs, shapes
//! (`write_shapes`), the metadata section (length-prefixed records, `write_route`), the flat tree.

use foldhash::HashMap;
use std::sync::OnceLock;

use super::route_list::RouteList;
use super::{next_uid, Router};
use crate::error::SnapshotError;
use crate::metadata::{ConstraintKind, ParamInfo, ParamKind, PatternPiece, RouteInfo};
use crate::route::MatcherSpec;
use crate::segments::Segments;
use crate::shapes::{RouteShape, RouteShapes};
use crate::tree::Tree;
use crate::{Order, RouterOptions, NONE};

const MAGIC: &[u8; 8] = b"ARBORRT\0";
mod flat;

/// Format version written and read by this build (2: routes carry their pattern pieces; 3: the
/// flattened tree follows the routes; 4: the checksum reads eight bytes a step; 5: no registration
/// tree; 6: the routes' shapes apart from their metadata, which a load checks but does not decode;
/// 7: the lean walk's segment trie follows the flattened tree).
pub(crate) const VERSION: u16 = 7;
const HEADER: usize = 8 + 2 + 2 + 4 + 8;

/// FNV-1a over little-endian 64-bit words (the last, short one zero-padded), then the length. A byte at
/// a time, the multiply chain took a third of loading a 5 MB snapshot (10,000 routes); a word at a time
/// is eight times fewer steps, and any changed byte still changes the sum. It catches corruption, not
/// forgery: what a forged payload could do is checked structurally (`validate`).
fn checksum(bytes: &[u8]) -> u64 {
    const PRIME: u64 = 0x0100_0000_01b3;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let words = bytes.chunks_exact(8);
    let rest = words.remainder();
    for word in words {
        let w = <[u8; 8]>::try_from(word).unwrap_or([0; 8]);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(PRIME);
    }
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w.iter_mut().zip(rest).for_each(|(slot, &b)| *slot = b);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(PRIME);
    }
    (h ^ bytes.len() as u64).wrapping_mul(PRIME)
}

#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn len(&mut self, n: usize) {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX));
    }
    fn bytes(&mut self, b: &[u8]) {
        self.len(b.len());
        self.0.extend_from_slice(b);
    }
    fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }
    fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
            None => self.u8(0),
        }
    }
    fn u32s(&mut self, v: &[u32]) {
        self.len(v.len());
        for &x in v {
            self.u32(x);
        }
    }
}

/// A little-endian `u32` from four bytes (0 from any other length: callers pass `chunks_exact(4)`).
fn u32_at(bytes: &[u8]) -> u32 {
    <[u8; 4]>::try_from(bytes).map_or(0, u32::from_le_bytes)
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

fn corrupt(reason: &str) -> SnapshotError {
    SnapshotError::Corrupt {
        reason: reason.to_owned(),
    }
}

// The readers are inlined: a 10,000-route snapshot makes ~10^6 calls, and each `Result` return
// through memory cost more than the read.
impl<'a> Reader<'a> {
    #[inline]
    fn take(&mut self, n: usize) -> Result<&'a [u8], SnapshotError> {
        let end = self
            .pos
            .checked_add(n)
            .ok_or_else(|| corrupt("length overflow"))?;
        let out = self
            .bytes
            .get(self.pos..end)
            .ok_or_else(|| corrupt("unexpected end of payload"))?;
        self.pos = end;
        Ok(out)
    }
    #[inline]
    fn u8(&mut self) -> Result<u8, SnapshotError> {
        Ok(self.take(1)?.first().copied().unwrap_or(0))
    }
    #[inline]
    fn u16(&mut self) -> Result<u16, SnapshotError> {
        let b = self.take(2)?;
        Ok(<[u8; 2]>::try_from(b).map_or(0, u16::from_le_bytes))
    }
    #[inline]
    fn u32(&mut self) -> Result<u32, SnapshotError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes(
            <[u8; 4]>::try_from(b).map_err(|_| corrupt("u32"))?,
        ))
    }
    #[inline]
    fn u64(&mut self) -> Result<u64, SnapshotError> {
        let b = self.take(8)?;
        Ok(u64::from_le_bytes(
            <[u8; 8]>::try_from(b).map_err(|_| corrupt("u64"))?,
        ))
    }
    /// A count of items each at least `min_size` bytes long (so a forged count cannot make us
    /// allocate more than the payload could hold).
    #[inline]
    fn count(&mut self, min_size: usize) -> Result<usize, SnapshotError> {
        let n = self.u32()? as usize;
        let remaining = self.bytes.len().saturating_sub(self.pos);
        if n.saturating_mul(min_size.max(1)) > remaining {
            return Err(corrupt("count larger than the payload"));
        }
        Ok(n)
    }
    #[inline]
    fn bytes(&mut self) -> Result<Vec<u8>, SnapshotError> {
        Ok(self.take_counted()?.to_vec())
    }
    /// A length-prefixed run of bytes, borrowed from the payload.
    #[inline]
    fn take_counted(&mut self) -> Result<&'a [u8], SnapshotError> {
        let n = self.count(1)?;
        self.take(n)
    }
    #[inline]
    fn str(&mut self) -> Result<String, SnapshotError> {
        let bytes = self.take_counted()?;
        String::from_utf8(bytes.to_vec()).map_err(|_| corrupt("invalid UTF-8 string"))
    }
    /// A string of the route metadata: its bytes are checked at load only for their length (see
    /// `check_metadata`), so a byte that is not UTF-8, which only a forged snapshot holds, reads as
    /// U+FFFD instead of failing a decode that must not fail.
    #[inline]
    fn text(&mut self) -> Result<String, SnapshotError> {
        Ok(String::from_utf8_lossy(self.take_counted()?).into_owned())
    }
    #[inline]
    fn opt_text(&mut self) -> Result<Option<String>, SnapshotError> {
        match self.u8()? {
            0 => Ok(None),
            1 => Ok(Some(self.text()?)),
            _ => Err(corrupt("invalid option tag")),
        }
    }
    #[inline]
    fn skip_text(&mut self) -> Result<(), SnapshotError> {
        self.take_counted().map(drop)
    }
    #[inline]
    fn skip_opt_text(&mut self) -> Result<(), SnapshotError> {
        match self.u8()? {
            0 => Ok(()),
            1 => self.skip_text(),
            _ => Err(corrupt("invalid option tag")),
        }
    }
    #[inline]
    fn bool(&mut self) -> Result<bool, SnapshotError> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(corrupt("invalid boolean")),
        }
    }
    #[inline]
    fn u32s(&mut self) -> Result<Vec<u32>, SnapshotError> {
        let n = self.count(4)?;
        // At once, not number by number: see `flat::read_segments`.
        Ok(self.take(n * 4)?.chunks_exact(4).map(u32_at).collect())
    }
}

fn kind_tag(kind: ParamKind) -> u8 {
    match kind {
        ParamKind::Param => 0,
        ParamKind::Optional => 1,
        ParamKind::Wildcard => 2,
        ParamKind::RegexGroup => 3,
    }
}

fn write_payload(router: &Router, w: &mut Writer) {
    w.u8(match router.options.order {
        Order::Definition => 0,
        Order::Specificity => 1,
    });
    w.u8(u8::from(router.options.trailing_slash));
    w.len(router.methods.len());
    for m in &router.methods {
        w.str(m);
    }
    w.len(router.specs.len());
    for spec in &router.specs {
        match spec {
            MatcherSpec::Segment { constraint: None } => w.u8(0),
            MatcherSpec::Segment {
                constraint: Some(c),
            } => {
                w.u8(1);
                w.str(c);
            }
            MatcherSpec::Complex { regex, groups } => {
                w.u8(2);
                w.str(regex);
                w.u32s(groups);
            }
            MatcherSpec::Wildcard => w.u8(3),
            MatcherSpec::Block { source } => {
                w.u8(4);
                w.str(source);
            }
        }
    }
    write_shapes(w, &router.route_shapes());
    let mut metadata = Writer::default();
    for r in router.routes() {
        write_route(&mut metadata, r);
    }
    w.bytes(&metadata.0);
    flat::write(router.flat(), w);
}

/// The shapes section: the name lists, the method sets, then five fields per route.
fn write_shapes(w: &mut Writer, shapes: &RouteShapes) {
    w.len(shapes.name_lists.len());
    for names in &shapes.name_lists {
        w.len(names.len());
        for name in names {
            w.str(name);
        }
    }
    w.len(shapes.method_sets.len());
    for set in &shapes.method_sets {
        w.u32s(set);
    }
    w.len(shapes.routes.len());
    for shape in &shapes.routes {
        w.u32(shape.names);
        w.u32(shape.methods);
        w.u8(u8::from(shape.optional));
        w.u32(shape.captures);
        w.u32(shape.shadowed_by.unwrap_or(NONE));
    }
}

/// One record of the metadata section (read by `read_route`, checked by `check_route`): what the shapes
/// section does not hold already (methods, parameter names, captures and shadowing are read from there).
fn write_route(w: &mut Writer, r: &RouteInfo) {
    w.str(&r.pattern);
    w.str(&r.template);
    for p in &r.params {
        w.u8(kind_tag(p.kind));
        w.opt_str(p.shortcut.as_deref());
        w.opt_str(p.regex.as_deref());
        w.u8(u8::from(p.optional));
    }
    w.opt_str(r.name.as_deref());
    w.u8(u8::from(r.is_static));
    w.len(r.pieces.len());
    for piece in &r.pieces {
        write_piece(w, piece);
    }
}

fn write_piece(w: &mut Writer, piece: &PatternPiece) {
    match piece {
        PatternPiece::Text(text) => {
            w.u8(0);
            w.str(text);
        }
        PatternPiece::Param {
            name,
            constraint,
            shortcut,
            regex,
            optional,
        } => {
            w.u8(1);
            w.str(name);
            w.u8(match constraint {
                ConstraintKind::None => 0,
                ConstraintKind::Shortcut => 1,
                ConstraintKind::Regex => 2,
            });
            w.opt_str(shortcut.as_deref());
            w.opt_str(regex.as_deref());
            w.u8(u8::from(*optional));
        }
        PatternPiece::Wildcard => w.u8(2),
        PatternPiece::Regex { source, captures } => {
            w.u8(3);
            w.str(source);
            w.len(captures.len());
            for name in captures {
                w.opt_str(name.as_deref());
            }
        }
    }
}

fn read_piece(r: &mut Reader<'_>) -> Result<PatternPiece, SnapshotError> {
    Ok(match r.u8()? {
        0 => PatternPiece::Text(r.text()?),
        1 => PatternPiece::Param {
            name: r.text()?,
            constraint: constraint_kind(r.u8()?)?,
            shortcut: r.opt_text()?,
            regex: r.opt_text()?,
            optional: r.bool()?,
        },
        2 => PatternPiece::Wildcard,
        3 => {
            let source = r.text()?;
            let n = r.count(1)?;
            let captures = (0..n)
                .map(|_| r.opt_text())
                .collect::<Result<Vec<_>, _>>()?;
            PatternPiece::Regex { source, captures }
        }
        _ => return Err(corrupt("invalid piece tag")),
    })
}

/// The shapes section (`write_shapes`), every index checked: name lists, method sets (of the router's
/// `n_methods`), then each route's.
fn read_shapes(r: &mut Reader<'_>, n_methods: usize) -> Result<RouteShapes, SnapshotError> {
    let n = r.count(4)?;
    let mut name_lists = Vec::with_capacity(n);
    for _ in 0..n {
        let names = r.count(4)?;
        name_lists.push((0..names).map(|_| r.str()).collect::<Result<Vec<_>, _>>()?);
    }
    let n = r.count(4)?;
    let mut method_sets = Vec::with_capacity(n);
    for _ in 0..n {
        let set = r.u32s()?;
        if set.iter().any(|&m| m as usize >= n_methods) {
            return Err(corrupt("method id out of range"));
        }
        method_sets.push(set);
    }
    let n = r.count(17)?;
    let mut routes = Vec::with_capacity(n);
    for _ in 0..n {
        let shape = RouteShape {
            names: r.u32()?,
            methods: r.u32()?,
            optional: r.bool()?,
            captures: r.u32()?,
            shadowed_by: match r.u32()? {
                NONE => None,
                s => Some(s),
            },
        };
        if shape.names as usize >= name_lists.len()
            || shape.methods as usize >= method_sets.len()
            || shape.shadowed_by.is_some_and(|s| s as usize >= n)
        {
            return Err(corrupt("route shape index out of range"));
        }
        routes.push(shape);
    }
    Ok(RouteShapes {
        name_lists,
        method_sets,
        routes,
    })
}

/// Checks every record of the metadata section as `read_route` will read it, without building
/// anything: a load only reads the shapes, and the records are decoded when something asks
/// (`decode_metadata`), which then cannot fail.
fn check_metadata(bytes: &[u8], shapes: &RouteShapes) -> Result<(), SnapshotError> {
    let r = &mut Reader { bytes, pos: 0 };
    for shape in &shapes.routes {
        r.skip_text()?; // pattern
        r.skip_text()?; // template
        let names = shapes
            .name_lists
            .get(shape.names as usize)
            .map_or(0, Vec::len);
        let mut optional = false;
        for _ in 0..names {
            param_kind(r.u8()?)?;
            r.skip_opt_text()?; // shortcut
            r.skip_opt_text()?; // regex
            optional |= r.bool()?;
        }
        if optional != shape.optional {
            return Err(corrupt("optional flag differs from the route's parameters"));
        }
        r.skip_opt_text()?; // name
        r.bool()?; // is_static
        for _ in 0..r.count(1)? {
            check_piece(r)?;
        }
    }
    if r.pos != bytes.len() {
        return Err(corrupt("trailing bytes after the route metadata"));
    }
    Ok(())
}

/// Reads what `check_metadata` checked: every route's `RouteInfo`, its methods, parameter names,
/// captures and shadowing from `shapes` (method ids indexing `methods`).
pub(super) fn decode_metadata(
    bytes: &[u8],
    shapes: &RouteShapes,
    methods: &[String],
) -> Vec<RouteInfo> {
    let r = &mut Reader { bytes, pos: 0 };
    let mut routes = Vec::with_capacity(shapes.routes.len());
    for (id, shape) in shapes.routes.iter().enumerate() {
        // Checked at load: a record that does not read (never) ends the list.
        match read_route(r, id, shape, shapes, methods) {
            Ok(route) => routes.push(route),
            Err(_) => break,
        }
    }
    routes
}

fn read_route(
    r: &mut Reader<'_>,
    id: usize,
    shape: &RouteShape,
    shapes: &RouteShapes,
    methods: &[String],
) -> Result<RouteInfo, SnapshotError> {
    let pattern = r.text()?;
    let template = r.text()?;
    let names = shapes
        .name_lists
        .get(shape.names as usize)
        .map_or(&[][..], Vec::as_slice);
    let mut params = Vec::with_capacity(names.len());
    for name in names {
        params.push(ParamInfo {
            name: name.clone(),
            kind: param_kind(r.u8()?)?,
            shortcut: r.opt_text()?,
            regex: r.opt_text()?,
            optional: r.bool()?,
        });
    }
    let name = r.opt_text()?;
    let is_static = r.bool()?;
    let n_pieces = r.count(1)?;
    let pieces = (0..n_pieces)
        .map(|_| read_piece(r))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(RouteInfo {
        id: u32::try_from(id).map_err(|_| corrupt("too many routes"))?,
        methods: shapes
            .method_sets
            .get(shape.methods as usize)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(|&m| methods.get(m as usize).cloned())
            .collect(),
        pattern,
        template,
        params,
        captures: shape.captures,
        name,
        shadowed_by: shape.shadowed_by,
        is_static,
        pieces,
    })
}

fn param_kind(tag: u8) -> Result<ParamKind, SnapshotError> {
    match tag {
        0 => Ok(ParamKind::Param),
        1 => Ok(ParamKind::Optional),
        2 => Ok(ParamKind::Wildcard),
        3 => Ok(ParamKind::RegexGroup),
        _ => Err(corrupt("invalid parameter kind")),
    }
}

fn constraint_kind(tag: u8) -> Result<ConstraintKind, SnapshotError> {
    match tag {
        0 => Ok(ConstraintKind::None),
        1 => Ok(ConstraintKind::Shortcut),
        2 => Ok(ConstraintKind::Regex),
        _ => Err(corrupt("invalid constraint kind")),
    }
}

/// `read_piece`'s reads, checked and dropped.
fn check_piece(r: &mut Reader<'_>) -> Result<(), SnapshotError> {
    match r.u8()? {
        0 => {
            r.skip_text()?;
        }
        1 => {
            r.skip_text()?;
            constraint_kind(r.u8()?)?;
            r.skip_opt_text()?;
            r.skip_opt_text()?;
            r.bool()?;
        }
        2 => {}
        3 => {
            r.skip_text()?;
            for _ in 0..r.count(1)? {
                r.skip_opt_text()?;
            }
        }
        _ => return Err(corrupt("invalid piece tag")),
    }
    Ok(())
}

fn read_payload(r: &mut Reader<'_>) -> Result<Router, SnapshotError> {
    let order = match r.u8()? {
        0 => Order::Definition,
        1 => Order::Specificity,
        _ => return Err(corrupt("invalid order")),
    };
    let trailing_slash = r.bool()?;
    let n = r.count(4)?;
    let methods = (0..n).map(|_| r.str()).collect::<Result<Vec<_>, _>>()?;

    let n = r.count(1)?;
    let mut specs = Vec::with_capacity(n);
    for _ in 0..n {
        specs.push(match r.u8()? {
            0 => MatcherSpec::Segment { constraint: None },
            1 => MatcherSpec::Segment {
                constraint: Some(r.str()?),
            },
            2 => MatcherSpec::Complex {
                regex: r.str()?,
                groups: r.u32s()?,
            },
            3 => MatcherSpec::Wildcard,
            4 => MatcherSpec::Block { source: r.str()? },
            _ => return Err(corrupt("invalid matcher tag")),
        });
    }

    let shapes = read_shapes(r, methods.len())?;
    let metadata = r.take_counted()?;
    check_metadata(metadata, &shapes)?;
    let (mut flat, segments) = flat::read(r, &shapes, specs.len(), methods.len())?;
    if r.pos != r.bytes.len() {
        return Err(corrupt("trailing bytes after the payload"));
    }

    let mut matchers = Vec::with_capacity(specs.len());
    let mut matcher_ids = HashMap::with_capacity_and_hasher(specs.len(), Default::default());
    for (i, spec) in specs.iter().enumerate() {
        matchers.push(spec.deferred());
        if matcher_ids
            .insert(spec.key(), u32::try_from(i).unwrap_or(NONE))
            .is_some()
        {
            return Err(corrupt("duplicate matcher"));
        }
    }
    flat.segments = match segments {
        None => None,
        Some(parts) => Some(
            Segments::from_parts(parts, &matchers, methods.len(), |route, start, len| {
                flat::leaf_fits(&flat.layouts, &shapes, route, start, len)
            })
            .ok_or_else(|| corrupt("segment trie"))?,
        ),
    };
    let router = Router {
        options: RouterOptions {
            order,
            trailing_slash,
        },
        uid: next_uid(),
        routes: RouteList::encoded(metadata.into(), shapes, methods.clone()),
        names: None,
        methods,
        index: None,
        specs,
        matchers,
        matcher_ids,
        tree: Tree::default(),
        flat: OnceLock::from(flat),
    };
    Ok(router)
}

impl Router {
    /// A binary snapshot of the whole router (routes, names, options, the built tree).
    ///
    /// ```
    /// use arbor_router::{Lookup, Router, RouterOptions, Spans};
    /// let mut router = Router::new(RouterOptions::default());
    /// let id = router.insert(&["GET"], "/users/:id<int>").unwrap().id;
    /// let loaded = Router::deserialize(&router.serialize()).unwrap();
    /// let mut spans = Spans::new();
    /// assert_eq!(loaded.find("GET", "/users/7", &mut spans), Lookup::Found(id));
    /// ```
    pub fn serialize(&self) -> Vec<u8> {
        let mut payload = Writer::default();
        write_payload(self, &mut payload);
        let payload = payload.0;
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(
            &u32::try_from(payload.len())
                .unwrap_or(u32::MAX)
                .to_le_bytes(),
        );
        out.extend_from_slice(&checksum(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Loads a snapshot made by [`Router::serialize`]. Errors (never panics) on foreign, truncated,
    /// corrupt or other-version bytes.
    pub fn deserialize(bytes: &[u8]) -> Result<Router, SnapshotError> {
        if bytes.get(..MAGIC.len()) != Some(MAGIC.as_slice()) {
            return Err(if MAGIC.starts_with(bytes) {
                SnapshotError::Truncated
            } else {
                SnapshotError::BadMagic
            });
        }
        let header = bytes.get(..HEADER).ok_or(SnapshotError::Truncated)?;
        let field = |at: usize, n: usize| header.get(at..at + n).unwrap_or_default();
        let version = u16::from_le_bytes(<[u8; 2]>::try_from(field(8, 2)).unwrap_or([0; 2]));
        if version != VERSION {
            return Err(SnapshotError::UnsupportedVersion {
                found: version,
                supported: VERSION,
            });
        }
        let len = u32::from_le_bytes(<[u8; 4]>::try_from(field(12, 4)).unwrap_or([0; 4])) as usize;
        let sum = u64::from_le_bytes(<[u8; 8]>::try_from(field(16, 8)).unwrap_or([0; 8]));
        let payload = bytes.get(HEADER..).unwrap_or_default();
        if payload.len() < len {
            return Err(SnapshotError::Truncated);
        }
        if payload.len() > len {
            return Err(corrupt("bytes after the declared length"));
        }
        if checksum(payload) != sum {
            return Err(SnapshotError::Checksum);
        }
        read_payload(&mut Reader {
            bytes: payload,
            pos: 0,
        })
    }
}
