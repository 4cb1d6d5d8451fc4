//! Shadowed routes (ROUTING.md §3.2): under definition order, a new dynamic route is reported when earlier
//! routes sharing a method match every path it matches: each of its variants (with and without an
//! optional parameter) is contained in an earlier route, not necessarily the same one. Registration
//! is the cold path, but it must stay near-linear for tables of 10,000 routes, so candidates come
//! from an index by literal prefix instead of a scan over every earlier route.

use foldhash::HashMap;

use crate::ids::RouteId;
use crate::route::Atom;

/// A variant's atom as the index keeps it: a constraint's or a block's source interned as a number.
/// A stored shape holds one of these per byte of its pattern, for every dynamic route of the table,
/// so their size is most of the index: an [`Atom`] carries a `String` (three words), this is 8
/// bytes on every target (docs/PERFORMANCE.md has what it saves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Packed {
    Byte(u8),
    Param(Option<u32>),
    Wildcard,
    Block(u32),
}

const _: () = assert!(std::mem::size_of::<Packed>() == 8);

/// The number given to a source the index has never stored: equal to none of its sources.
const UNSEEN: u32 = u32::MAX;

/// The shapes of the dynamic routes, and an index of them by literal prefix.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shapes {
    /// Per dynamic route: its id and the atoms of each variant.
    routes: HashMap<RouteId, Box<[Box<[Packed]>]>>,
    /// Dynamic routes by the literal text that starts every one of their variants. A route can only
    /// contain another whose literal prefix starts with its own (a literal never contains a parameter).
    by_prefix: HashMap<Vec<u8>, Vec<RouteId>>,
    /// Constraint and block sources by their number in [`Packed`].
    sources: HashMap<String, u32>,
}

/// `atoms` with each constraint or block source replaced by `number(source)`.
fn pack<'a>(
    atoms: &'a [Atom],
    mut number: impl FnMut(&String) -> u32 + 'a,
) -> impl Iterator<Item = Packed> + 'a {
    atoms.iter().map(move |a| match a {
        Atom::Byte(b) => Packed::Byte(*b),
        Atom::Param(source) => Packed::Param(source.as_ref().map(&mut number)),
        Atom::Wildcard => Packed::Wildcard,
        Atom::Block(source) => Packed::Block(number(source)),
    })
}

/// The literal bytes a variant starts with.
fn literal_prefix(atoms: &[Atom]) -> Vec<u8> {
    atoms
        .iter()
        .map_while(|a| match a {
            Atom::Byte(b) => Some(*b),
            _ => None,
        })
        .collect()
}

impl Shapes {
    /// Records a dynamic route.
    pub(crate) fn add(&mut self, id: RouteId, variants: &[&[Atom]]) {
        let mut key: Option<Vec<u8>> = None;
        for v in variants {
            let p = literal_prefix(v);
            key = Some(match key {
                None => p,
                Some(k) => {
                    let n = k.iter().zip(&p).take_while(|(a, b)| a == b).count();
                    k.get(..n).unwrap_or_default().to_vec()
                }
            });
        }
        self.by_prefix
            .entry(key.unwrap_or_default())
            .or_default()
            .push(id);
        let packed = variants.iter().map(|v| self.pack_stored(v)).collect();
        self.routes.insert(id, packed);
    }

    /// `atoms` as stored, their sources numbered (new ones get the next number).
    fn pack_stored(&mut self, atoms: &[Atom]) -> Box<[Packed]> {
        let sources = &mut self.sources;
        pack(atoms, |source| {
            if let Some(&n) = sources.get(source) {
                return n;
            }
            let n = u32::try_from(sources.len()).unwrap_or(UNSEEN);
            sources.insert(source.clone(), n);
            n
        })
        .collect()
    }

    /// `atoms` to compare with the stored shapes: a source never stored is [`UNSEEN`].
    fn pack_query(&self, atoms: &[Atom]) -> Vec<Packed> {
        pack(atoms, |source| {
            self.sources.get(source).copied().unwrap_or(UNSEEN)
        })
        .collect()
    }

    /// The smallest id among the recorded routes accepted by `eligible` (method overlap) that
    /// contain the variant `atoms` (one variant of the new route).
    pub(crate) fn covering(
        &self,
        atoms: &[Atom],
        eligible: impl Fn(RouteId) -> bool,
    ) -> Option<RouteId> {
        let prefix = literal_prefix(atoms);
        let query = self.pack_query(atoms);
        let mut best: Option<RouteId> = None;
        for k in 0..=prefix.len() {
            let Some(ids) = prefix.get(..k).and_then(|p| self.by_prefix.get(p)) else {
                continue;
            };
            for &id in ids {
                if best.is_some_and(|b| b <= id) || !eligible(id) {
                    continue;
                }
                let Some(shape) = self.routes.get(&id) else {
                    continue;
                };
                if shape.iter().any(|e| contains(e, &query)) {
                    best = Some(id);
                }
            }
        }
        best
    }
}

/// The atoms of `atoms` from `from` to the end of that segment (the next `/` excluded).
fn segment_rest(atoms: &[Packed], from: usize) -> &[Packed] {
    let rest = atoms.get(from..).unwrap_or_default();
    let end = rest
        .iter()
        .position(|a| matches!(a, Packed::Byte(b'/')))
        .unwrap_or(rest.len());
    rest.get(..end).unwrap_or_default()
}

/// Whether every path matched by `r` is matched by `e` (ROUTING.md §3.2), decided piece by piece and
/// conservatively: an unconstrained parameter of `e` contains any non-empty, slash-free run of `r`
/// when it ends its segment, and an identical rest of the segment when it does not (`:p.:q`); a
/// constrained parameter or a block contains only an identical one; a wildcard contains any rest.
/// Anything else is "not contained", so there are no false warnings.
fn contains(e: &[Packed], r: &[Packed]) -> bool {
    let (mut ei, mut ri) = (0usize, 0usize);
    loop {
        match (e.get(ei), r.get(ri)) {
            (None, None) => return true,
            (Some(Packed::Wildcard), _) => return true,
            (None, Some(_)) => return false,
            (Some(Packed::Byte(a)), Some(Packed::Byte(b))) if a == b => {
                ei += 1;
                ri += 1;
            }
            (Some(Packed::Block(a)), Some(Packed::Block(b))) => return a == b,
            (Some(Packed::Param(Some(a))), Some(Packed::Param(Some(b)))) if a == b => {
                ei += 1;
                ri += 1;
            }
            (Some(Packed::Param(None)), Some(_)) => {
                if !matches!(e.get(ei + 1), None | Some(Packed::Byte(b'/'))) {
                    // The parameter shares its segment with more pieces (`:p.:q`): the segments
                    // contain each other only when the rest of them is identical.
                    let e_rest = segment_rest(e, ei);
                    let r_rest = segment_rest(r, ri);
                    if e_rest != r_rest {
                        return false;
                    }
                    ei += e_rest.len();
                    ri += r_rest.len();
                    continue;
                }
                let start = ri;
                while let Some(atom) = r.get(ri) {
                    match atom {
                        Packed::Byte(b'/') => break,
                        Packed::Byte(_) | Packed::Param(_) => ri += 1,
                        Packed::Wildcard | Packed::Block(_) => return false,
                    }
                }
                if ri == start {
                    return false;
                }
                ei += 1;
            }
            _ => return false,
        }
    }
}
