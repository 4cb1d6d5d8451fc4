//! How a snapshot encodes what the router and its route list share: the byte codec, and the routes'
//! metadata. The route list decodes the metadata on first read; the snapshot writes it and checks it
//! at load.

mod bytes;
mod metadata;

pub(crate) use bytes::{corrupt, u32_at, Reader, Writer};
pub(crate) use metadata::{
    check_metadata, decode_metadata, read_shapes, write_route, write_shapes,
};
