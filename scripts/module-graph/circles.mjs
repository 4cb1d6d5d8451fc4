// Circles in a graph (a map from each node to the set of nodes it depends on), and the graph of groups.

/**
 * The knots of a graph: its strongly connected components of more than one node (or a node with an edge
 * to itself), each as its sorted nodes. Every circle lies inside one knot; `edges` maps each node to the
 * nodes it depends on.
 */
export function knots(edges) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  const connect = (node) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) connect(node);
  return components
    .filter((c) => c.length > 1 || (edges.get(c[0]) ?? new Set()).has(c[0]))
    .map((component) => component.sort())
    .sort((a, b) => a.join().localeCompare(b.join()));
}

/** One circle per knot: the shortest path from its first node back to it. */
export function circles(edges) {
  return knots(edges).map((knot) => shortestCircle(edges, new Set(knot)));
}

/** The shortest path from the first node of `component` back to itself, inside the component. */
export function shortestCircle(edges, component) {
  const start = [...component].sort()[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const to of [...(edges.get(node) ?? [])].sort()) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

/** The graph of the groups `groupOf` puts nodes in: an edge between two groups for every edge between
 * their members, `skip(from, to)` aside. */
export function groupGraph(edges, groupOf, skip = () => false) {
  const groups = new Map();
  for (const [from, targets] of edges) {
    const group = groupOf(from);
    if (!groups.has(group)) groups.set(group, new Set());
    for (const to of targets) {
      if (skip(from, to) || groupOf(to) === group) continue;
      groups.get(group).add(groupOf(to));
    }
  }
  return groups;
}
