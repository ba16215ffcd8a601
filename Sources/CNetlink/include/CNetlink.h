// CNetlink: the rtnetlink ABI as Swift sees it. Swift's Glibc module carries neither
// <linux/netlink.h> nor <linux/rtnetlink.h>, and their NLMSG_*/RTA_*/RTNH_* macros do not import
// (they are pointer arithmetic), so the few this port needs are bridged as static inline
// functions. Nothing here keeps state or makes a system call: NetworkPath's Syscalls.swift does.

#ifndef CNETLINK_H
#define CNETLINK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
// <net/if.h> first: the kernel headers then leave glibc's IFF_* and struct ifreq alone.
#include <net/if.h>
#include <linux/if.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>

/// NLMSG_ALIGN: messages in a datagram start on 4-byte boundaries.
static inline size_t cnl_nlmsg_align(size_t length) { return NLMSG_ALIGN(length); }

/// NLMSG_HDRLEN: where a message's payload starts.
static inline size_t cnl_nlmsg_hdrlen(void) { return NLMSG_HDRLEN; }

/// NLMSG_LENGTH: header plus a payload of `payload` bytes.
static inline size_t cnl_nlmsg_length(size_t payload) { return NLMSG_LENGTH(payload); }

/// RTA_ALIGN: attributes start on 4-byte boundaries.
static inline size_t cnl_rta_align(size_t length) { return RTA_ALIGN(length); }

/// RTA_LENGTH(0): where an attribute's payload starts.
static inline size_t cnl_rta_hdrlen(void) { return RTA_LENGTH(0); }

/// NLA_TYPE_MASK: an attribute's type without the nested / byte-order flags.
static inline uint16_t cnl_nla_type(uint16_t type) { return type & NLA_TYPE_MASK; }

/// IFLA_RTA: where a link message's attributes start, from its payload.
static inline size_t cnl_ifinfomsg_attributes_offset(void) { return NLMSG_ALIGN(sizeof(struct ifinfomsg)); }

/// IFA_RTA: where an address message's attributes start, from its payload.
static inline size_t cnl_ifaddrmsg_attributes_offset(void) { return NLMSG_ALIGN(sizeof(struct ifaddrmsg)); }

/// RTM_RTA: where a route message's attributes start, from its payload.
static inline size_t cnl_rtmsg_attributes_offset(void) { return NLMSG_ALIGN(sizeof(struct rtmsg)); }

/// RTNH_ALIGN: next hops inside RTA_MULTIPATH start on 4-byte boundaries.
static inline size_t cnl_rtnh_align(size_t length) { return RTNH_ALIGN(length); }

/// RTNH_LENGTH(0): where a next hop's own attributes start.
static inline size_t cnl_rtnh_hdrlen(void) { return RTNH_LENGTH(0); }

/// A dump request (`RTM_GETLINK`, `RTM_GETADDR`, `RTM_GETROUTE`): a header and the family
/// header the kernel expects for that message type, laid out as C lays it out.
struct cnl_dump_request {
    struct nlmsghdr header;
    union {
        struct ifinfomsg link;
        struct ifaddrmsg address;
        struct rtmsg route;
    } body;
};

#endif
