/* syncline_net_tp.h: the syncline_net lttng-ust tracepoint provider, as documented in
 * README.md ("Instrumenting your own programs"); sl-test-netpeer emits it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER syncline_net

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./syncline_net_tp.h"

#if !defined(SYNCLINE_NET_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define SYNCLINE_NET_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

/*
 * family:           4 or 6 (AF_INET and AF_INET6 are accepted too)
 * saddr, daddr:     16 bytes in network byte order; IPv4 in the first 4, the rest zero
 * sport, dport,
 * seq, ack_seq:     host byte order (ntohs/ntohl of the TCP header's fields)
 * flags:            the TCP header's 9 flag bits (FIN 0x01, SYN 0x02, RST 0x04, PSH 0x08,
 *                   ACK 0x10, URG 0x20, ECE 0x40, CWR 0x80, NS 0x100)
 */
/* SL_TP_BLOB_ADDRESSES (LTTng-UST >= 2.16): the addresses as 16-byte BLOBs,
 * CTF 2's static-length-blob (tests/test-lttng216.sh) */
#ifdef SL_TP_BLOB_ADDRESSES
#define SYNCLINE_NET_ADDRESS(a) lttng_ust_field_fixed_length_blob(a, a, 16, "application/octet-stream")
#else
#define SYNCLINE_NET_ADDRESS(a) ctf_array(uint8_t, a, a, 16)
#endif

TRACEPOINT_EVENT_CLASS(syncline_net, tcp_packet,
    TP_ARGS(uint8_t, family, const uint8_t *, saddr, const uint8_t *, daddr,
            uint16_t, sport, uint16_t, dport, uint32_t, seq, uint32_t, ack_seq,
            uint16_t, flags),
    TP_FIELDS(
        ctf_integer(uint8_t, family, family)
        SYNCLINE_NET_ADDRESS(saddr)
        SYNCLINE_NET_ADDRESS(daddr)
        ctf_integer(uint16_t, sport, sport)
        ctf_integer(uint16_t, dport, dport)
        ctf_integer(uint32_t, seq, seq)
        ctf_integer(uint32_t, ack_seq, ack_seq)
        ctf_integer(uint16_t, flags, flags)
    )
)

TRACEPOINT_EVENT_INSTANCE(syncline_net, tcp_packet, tcp_send,
    TP_ARGS(uint8_t, family, const uint8_t *, saddr, const uint8_t *, daddr,
            uint16_t, sport, uint16_t, dport, uint32_t, seq, uint32_t, ack_seq,
            uint16_t, flags))

TRACEPOINT_EVENT_INSTANCE(syncline_net, tcp_packet, tcp_recv,
    TP_ARGS(uint8_t, family, const uint8_t *, saddr, const uint8_t *, daddr,
            uint16_t, sport, uint16_t, dport, uint32_t, seq, uint32_t, ack_seq,
            uint16_t, flags))

#endif /* SYNCLINE_NET_TP_H */

#include <lttng/tracepoint-event.h>
