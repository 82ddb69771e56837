//! The HTTP/2 session against frames written by hand (header blocks by an independent
//! HPACK encoder): answers in any order, bodies counted, a header block across
//! CONTINUATION with padding and priority, a reset stream, SETTINGS and PING answered,
//! GOAWAY, a frame cut in two, and requests as frames with their stream ids.
use super::*;
use crate::http::h2::frame::{FrameHeader, HEADER_LEN};
use std::sync::Arc;

fn in_flight(stream: u32) -> InFlight {
    let now = Instant::now();
    InFlight {
        due: now,
        sent: now,
        deadline: now,
        retried: false,
        target: 0,
        stream,
        status: 0,
        received: 0,
    }
}

fn headers_block(status: &str) -> Vec<u8> {
    let mut e = loona_hpack::Encoder::new();
    e.encode(vec![
        (&b":status"[..], status.as_bytes()),
        (&b"server"[..], &b"nginx"[..]),
    ])
}

fn frame_of(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    frame::frame(&mut out, kind, flags, stream, payload);
    out
}

/// The frames in `bytes`, as (kind, flags, stream, payload).
fn frames_in(bytes: &[u8]) -> Vec<(u8, u8, u32, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(h) = FrameHeader::parse(&bytes[at..]) {
        let p = bytes[at + HEADER_LEN..at + HEADER_LEN + h.len].to_vec();
        out.push((h.kind, h.flags, h.stream, p));
        at += HEADER_LEN + h.len;
    }
    assert_eq!(at, bytes.len(), "whole frames");
    out
}

fn run(h2: &mut H2, inflight: &mut VecDeque<InFlight>, bytes: &[u8]) -> Vec<Completion> {
    let mut out = Vec::new();
    let used = h2
        .frames(bytes, inflight, Instant::now(), &mut out)
        .unwrap();
    assert_eq!(used, bytes.len());
    out
}

#[test]
fn answers_arrive_in_any_order_with_their_status_and_body() {
    let mut h2 = H2::new(1 << 20);
    h2.out.clear();
    let mut inflight: VecDeque<InFlight> = [1, 3, 5].into_iter().map(in_flight).collect();
    let mut bytes = frame_of(frame::HEADERS, frame::END_HEADERS, 3, &headers_block("200"));
    bytes.extend(frame_of(frame::DATA, 0, 3, b"hello "));
    bytes.extend(frame_of(frame::DATA, frame::END_STREAM, 3, b"world"));
    // 204: no body, the stream ends on its headers.
    bytes.extend(frame_of(
        frame::HEADERS,
        frame::END_HEADERS | frame::END_STREAM,
        5,
        &headers_block("204"),
    ));
    let done = run(&mut h2, &mut inflight, &bytes);
    let got: Vec<(u32, u16, u64)> = done
        .iter()
        .map(|(r, a, _)| {
            let a = a.as_ref().unwrap();
            (r.stream, a.status, a.body.0)
        })
        .collect();
    assert_eq!(got, [(3, 200, 11), (5, 204, 0)]);
    assert_eq!(inflight.iter().map(|r| r.stream).collect::<Vec<_>>(), [1]);
}

#[test]
fn a_header_block_across_continuation_with_padding_and_priority() {
    let mut h2 = H2::new(1 << 20);
    let mut inflight: VecDeque<InFlight> = [in_flight(1)].into();
    let block = headers_block("404");
    let (a, b) = block.split_at(3);
    // HEADERS: pad length 2, priority (5 bytes), the first part, 2 bytes of padding.
    let mut payload = vec![2u8];
    payload.extend([0, 0, 0, 0, 16]);
    payload.extend(a);
    payload.extend([0, 0]);
    let mut bytes = frame_of(
        frame::HEADERS,
        frame::PADDED | frame::PRIORITY_FLAG | frame::END_STREAM,
        1,
        &payload,
    );
    bytes.extend(frame_of(frame::CONTINUATION, frame::END_HEADERS, 1, b));
    let done = run(&mut h2, &mut inflight, &bytes);
    assert_eq!(done.len(), 1);
    assert_eq!(done[0].1.as_ref().unwrap().status, 404);
    // Another frame inside a header block is a protocol error.
    let mut inflight: VecDeque<InFlight> = [in_flight(3)].into();
    let mut bad = frame_of(frame::HEADERS, 0, 3, a);
    bad.extend(frame_of(frame::DATA, 0, 3, b"x"));
    let mut out = Vec::new();
    let e = h2
        .frames(&bad, &mut inflight, Instant::now(), &mut out)
        .unwrap_err();
    assert_eq!(e.kind, "HTTP/2 protocol error");
}

#[test]
fn a_reset_stream_fails_alone_and_the_connection_goes_on() {
    let mut h2 = H2::new(1 << 20);
    let mut inflight: VecDeque<InFlight> = [1, 3].into_iter().map(in_flight).collect();
    let bytes = frame_of(frame::RST_STREAM, 0, 1, &7u32.to_be_bytes());
    let done = run(&mut h2, &mut inflight, &bytes);
    let f = done[0].1.as_ref().unwrap_err();
    assert_eq!(f.kind, "stream reset by the server");
    assert!(f.detail.contains("REFUSED_STREAM"), "{}", f.detail);
    assert_eq!(inflight.len(), 1);
}

#[test]
fn settings_and_pings_are_answered_and_goaway_stops_new_streams() {
    let mut h2 = H2::new(1 << 20);
    h2.out.clear();
    let mut inflight = VecDeque::new();
    let mut settings = Vec::new();
    settings.extend(3u16.to_be_bytes());
    settings.extend(2u32.to_be_bytes());
    let mut bytes = frame_of(frame::SETTINGS, 0, 0, &settings);
    bytes.extend(frame_of(frame::PING, 0, 0, b"12345678"));
    run(&mut h2, &mut inflight, &bytes);
    let written = frames_in(&h2.out);
    assert_eq!(written[0], (frame::SETTINGS, frame::ACK, 0, vec![]));
    assert_eq!(
        written[1],
        (frame::PING, frame::ACK, 0, b"12345678".to_vec())
    );
    // The server's bound of 2 streams holds however many --streams allows.
    assert!(h2.room(1, 100) && !h2.room(2, 100));
    let mut goaway = 1u32.to_be_bytes().to_vec();
    goaway.extend(0u32.to_be_bytes());
    run(
        &mut h2,
        &mut inflight,
        &frame_of(frame::GOAWAY, 0, 0, &goaway),
    );
    assert_eq!(h2.goaway, Some(1));
    assert!(!h2.room(0, 100));
}

#[test]
fn a_frame_cut_in_two_waits_for_its_rest() {
    let mut h2 = H2::new(1 << 20);
    let mut inflight: VecDeque<InFlight> = [in_flight(1)].into();
    let mut bytes = frame_of(frame::HEADERS, frame::END_HEADERS, 1, &headers_block("200"));
    bytes.extend(frame_of(frame::DATA, frame::END_STREAM, 1, b"ok"));
    let cut = bytes.len() - 3;
    let mut out = Vec::new();
    let used = h2
        .frames(&bytes[..cut], &mut inflight, Instant::now(), &mut out)
        .unwrap();
    assert!(
        out.is_empty() && used < cut,
        "the DATA frame is not whole yet"
    );
    h2.frames(&bytes[used..], &mut inflight, Instant::now(), &mut out)
        .unwrap();
    assert_eq!(out.len(), 1);
}

#[test]
fn requests_become_frames_on_odd_streams_and_bodies_wait_for_the_window() {
    let target = crate::http::target::Target::parse("http://127.0.0.1:8080/p").unwrap();
    let block = super::super::encode::header_block(&target, "POST", &[], 4);
    let planned = PlannedTarget {
        request: Arc::from(&b""[..]),
        h2_headers: block.clone().into(),
        body: Arc::from(&b"abcd"[..]),
        idempotent: false,
        head: false,
        host: 0,
        weight: 1,
    };
    let mut h2 = H2::new(1 << 20);
    h2.out.clear();
    let mut waits = in_flight(0);
    assert!(
        !h2.request(&mut waits, &planned).unwrap(),
        "a body waits for the server's SETTINGS (its window and largest frame)"
    );
    h2.settled = true;
    let (mut a, mut b) = (in_flight(0), in_flight(0));
    assert!(h2.request(&mut a, &planned).unwrap());
    assert!(h2.request(&mut b, &planned).unwrap());
    assert_eq!((a.stream, b.stream), (1, 3));
    let written = frames_in(&h2.out);
    assert_eq!(
        written[0],
        (frame::HEADERS, frame::END_HEADERS, 1, block.clone())
    );
    assert_eq!(
        written[1],
        (frame::DATA, frame::END_STREAM, 1, b"abcd".to_vec())
    );
    assert_eq!(written[3].2, 3);
    // The connection's window spent: the next body waits for a WINDOW_UPDATE.
    h2.send_window = 3;
    let mut c = in_flight(0);
    assert!(!h2.request(&mut c, &planned).unwrap());
    assert_eq!(c.stream, 0, "not given a stream while it waits");
    let mut inflight = VecDeque::new();
    run(
        &mut h2,
        &mut inflight,
        &frame_of(frame::WINDOW_UPDATE, 0, 0, &100u32.to_be_bytes()),
    );
    assert!(h2.request(&mut c, &planned).unwrap());
    // A header block above the server's frame size goes out as HEADERS + CONTINUATION.
    h2.out.clear();
    h2.peer_max_frame = 16;
    let mut d = in_flight(0);
    assert!(h2.request(&mut d, &planned).unwrap());
    let written = frames_in(&h2.out);
    let kinds: Vec<u8> = written.iter().map(|f| f.0).collect();
    let parts = block.len().div_ceil(16);
    assert_eq!(kinds.len(), parts + 1);
    assert_eq!(kinds[0], frame::HEADERS);
    assert!(kinds[1..parts].iter().all(|k| *k == frame::CONTINUATION));
    assert_eq!(
        written[parts - 1].1,
        frame::END_HEADERS,
        "only the last part ends the block"
    );
    assert_eq!(
        written[0].1, 0,
        "a body follows: HEADERS does not end the stream"
    );
    let joined: Vec<u8> = written[..parts].iter().flat_map(|f| f.3.clone()).collect();
    assert_eq!(joined, block);
    // A body larger than the server's stream window cannot go in one frame: refused.
    h2.peer_initial_window = 2;
    let mut e = in_flight(0);
    let f = h2.request(&mut e, &planned).unwrap_err();
    assert_eq!(f.kind, "request body above the server's HTTP/2 window");
}

#[test]
fn a_cancelled_stream_is_reset_and_its_late_data_dropped() {
    let mut h2 = H2::new(1 << 20);
    h2.out.clear();
    h2.cancel(5);
    assert_eq!(
        frames_in(&h2.out),
        [(
            frame::RST_STREAM,
            0,
            5,
            frame::CANCEL.to_be_bytes().to_vec()
        )]
    );
    // DATA still arriving for it (the server had sent it) is counted for the window only.
    let mut inflight: VecDeque<InFlight> = [in_flight(7)].into();
    let done = run(
        &mut h2,
        &mut inflight,
        &frame_of(frame::DATA, frame::END_STREAM, 5, b"late"),
    );
    assert!(done.is_empty());
    assert_eq!(inflight.len(), 1);
}
