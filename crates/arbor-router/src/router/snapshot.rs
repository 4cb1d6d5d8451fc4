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

use super::codec::{
    check_metadata, corrupt, read_shapes, write_route, write_shapes, Reader, Writer,
};
use super::route_list::RouteList;
use super::{next_uid, Router};
use crate::error::SnapshotError;
use crate::ids::NONE;
use crate::options::{Order, RouterOptions};
use crate::route::MatcherSpec;
use crate::segments::Segments;
use crate::tree::Tree;

const MAGIC: &[u8; 8] = b"ARBORRT\0";
mod flat;

/// Format version written and read by this build (2: routes carry their pattern pieces; 3: the
/// flattened tree follows the routes; 4: the checksum reads eight bytes a step; 5: no registration
/// tree; 6: the routes' shapes apart from their metadata, which a load checks but does not decode;
/// 7: the lean walk's segment trie follows the flattened tree).
pub(crate) const VERSION: u16 = 7;
const HEADER: usize = 8 + 2 + 2 + 4 + 8;

/// FNV-1a over little-endian 64-bit words (the last, short one zero-padded), then the length. A byte at
/// a time, the chain of multiplies was a large part of loading a big snapshot; a word at a time takes
/// an eighth of the steps, and any changed byte still changes the sum. It catches corruption, not
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
