//! How a [`Router`](crate::Router) orders and retries its routes.

/// Which dynamic route wins when several match (ROUTING.md §3.2). An exact static route always wins.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Order {
    /// The first defined route that matches (the default; Laravel, Express, hono).
    #[default]
    Definition,
    /// At each point of the path static text is tried before a constrained parameter, before an
    /// unconstrained one, before a wildcard or regex block; among equals, definition order; with
    /// backtracking; the first match in that order wins (find-my-way, rou3). Exactly:
    ///
    /// A route is a sequence of steps: one per byte of static text, one per dynamic piece (a
    /// parameter ending its segment; a *segment tail*, i.e. a parameter followed by more text or
    /// parameters up to the next `/`, such as `:a.:b` or `{id}x`; a wildcard; a regex block). Of two
    /// routes matching a path, at their first differing step:
    /// 1. the one with no step left wins (it ends there; the other continues with empty pieces);
    /// 2. static text beats a dynamic piece;
    /// 3. dynamic pieces rank: segment tail starting with a constrained parameter, constrained
    ///    parameter, segment tail starting with an unconstrained parameter, unconstrained
    ///    parameter, wildcard or regex block;
    /// 4. two segment tails of one rank: at the first character of the segment that one gives to
    ///    static text and the other to a parameter (each tail cut as it matches alone), the static
    ///    text wins: `/foo/:bar.png.png` beats `/foo/:bar.png` on `/foo/value.png.png`;
    /// 5. otherwise equal ranks: the piece under which the earliest route (of that method) was
    ///    defined wins.
    ///
    /// Identical steps: the earlier route. The tree walk does this depth first (statics, then dynamic
    /// children sorted by rank and smallest route id below them, a run of segment tails of one rank
    /// ordered on the path); the TypeScript reference engine in the tests implements the same rule as
    /// a comparison (`tests/support/reference-engine/specificity.ts`).
    Specificity,
}

/// Options of a [`Router`](crate::Router).
///
/// ```
/// use arbor_router::{Order, RouterOptions};
/// let strict = RouterOptions { order: Order::Specificity, trailing_slash: false };
/// assert_eq!(RouterOptions::default().order, Order::Definition);
/// assert!(RouterOptions::default().trailing_slash);
/// # let _ = strict;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterOptions {
    /// How dynamic routes are ordered.
    pub order: Order,
    /// Whether a path that matches nothing is retried with one trailing slash toggled (ROUTING.md §3.1).
    /// `false` is the framework's `strict` mode.
    pub trailing_slash: bool,
}

impl Default for RouterOptions {
    fn default() -> Self {
        RouterOptions {
            order: Order::Definition,
            trailing_slash: true,
        }
    }
}
