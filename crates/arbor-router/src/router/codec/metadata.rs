//! The routes' metadata in a snapshot: the shapes section (what serving reads) and the metadata
//! section (one record per route, checked at load and decoded when something reads it).

use super::bytes::{corrupt, Reader, Writer};
use crate::error::SnapshotError;
use crate::ids::NONE;
use crate::metadata::{ConstraintKind, ParamInfo, ParamKind, PatternPiece, RouteInfo};
use crate::shapes::{RouteShape, RouteShapes};

fn kind_tag(kind: ParamKind) -> u8 {
    match kind {
        ParamKind::Param => 0,
        ParamKind::Optional => 1,
        ParamKind::Wildcard => 2,
        ParamKind::RegexGroup => 3,
    }
}

/// The shapes section: the name lists, the method sets, then five fields per route.
pub(crate) fn write_shapes(w: &mut Writer, shapes: &RouteShapes) {
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

/// One record of the metadata section (read by `read_route`, checked by `check_metadata`): what the shapes
/// section does not hold already (methods, parameter names, captures and shadowing are read from there).
pub(crate) fn write_route(w: &mut Writer, r: &RouteInfo) {
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
pub(crate) fn read_shapes(
    r: &mut Reader<'_>,
    n_methods: usize,
) -> Result<RouteShapes, SnapshotError> {
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
pub(crate) fn check_metadata(bytes: &[u8], shapes: &RouteShapes) -> Result<(), SnapshotError> {
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
pub(crate) fn decode_metadata(
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
