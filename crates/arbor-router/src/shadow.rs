//! Shadowed routes (SPEC 3.2): under definition order, a new dynamic route is reported when earlier
//! routes sharing a method match every path it matches: each of its variants (with and without an
//! optional parameter) is contained in an earlier route, not necessarily the same one. Registration is the cold path, but
//! it must stay near-linear for tables of 10,000 routes, so candidates come from an index by literal
//! prefix instead of a scan over every earlier route.

use foldhash::HashMap;

use crate::route::Atom;
use crate::RouteId;

/// The shapes of the dynamic routes, and an index of them by literal prefix.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shapes {
    /// Per dynamic route: its id and the atoms of each variant.
    routes: HashMap<RouteId, Vec<Vec<Atom>>>,
    /// Dynamic routes by the literal text that starts every one of their variants. A route can only
    /// contain another whose literal prefix starts with its own (a literal never contains a parameter).
    by_prefix: HashMap<Vec<u8>, Vec<RouteId>>,
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
    pub(crate) fn add(&mut self, id: RouteId, variants: Vec<Vec<Atom>>) {
        let mut key: Option<Vec<u8>> = None;
        for v in &variants {
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
        self.routes.insert(id, variants);
    }

    /// The smallest id among the recorded routes accepted by `eligible` (method overlap) that
    /// contain the variant `atoms` (one variant of the new route).
    pub(crate) fn covering(
        &self,
        atoms: &[Atom],
        eligible: impl Fn(RouteId) -> bool,
    ) -> Option<RouteId> {
        let prefix = literal_prefix(atoms);
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
                if shape.iter().any(|e| contains(e, atoms)) {
                    best = Some(id);
                }
            }
        }
        best
    }
}

/// The atoms of `atoms` from `from` to the end of that segment (the next `/` excluded).
fn segment_rest(atoms: &[Atom], from: usize) -> &[Atom] {
    let rest = atoms.get(from..).unwrap_or_default();
    let end = rest
        .iter()
        .position(|a| matches!(a, Atom::Byte(b'/')))
        .unwrap_or(rest.len());
    rest.get(..end).unwrap_or_default()
}

/// Whether every path matched by `r` is matched by `e` (SPEC 3.2), decided piece by piece and
/// conservatively: an unconstrained parameter of `e` contains any non-empty, slash-free run of `r`
/// when it ends its segment, and an identical rest of the segment when it does not (`:p.:q`); a
/// constrained parameter or a block contains only an identical one; a wildcard contains any rest.
/// Anything else is "not contained", so there are no false warnings.
pub(crate) fn contains(e: &[Atom], r: &[Atom]) -> bool {
    let (mut ei, mut ri) = (0usize, 0usize);
    loop {
        match (e.get(ei), r.get(ri)) {
            (None, None) => return true,
            (Some(Atom::Wildcard), _) => return true,
            (None, Some(_)) => return false,
            (Some(Atom::Byte(a)), Some(Atom::Byte(b))) if a == b => {
                ei += 1;
                ri += 1;
            }
            (Some(Atom::Block(a)), Some(Atom::Block(b))) => return a == b,
            (Some(Atom::Param(Some(a))), Some(Atom::Param(Some(b)))) if a == b => {
                ei += 1;
                ri += 1;
            }
            (Some(Atom::Param(None)), Some(_)) => {
                if !matches!(e.get(ei + 1), None | Some(Atom::Byte(b'/'))) {
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
                        Atom::Byte(b'/') => break,
                        Atom::Byte(_) | Atom::Param(_) => ri += 1,
                        Atom::Wildcard | Atom::Block(_) => return false,
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
