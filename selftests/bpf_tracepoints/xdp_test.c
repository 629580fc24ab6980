// SPDX-License-Identifier: GPL-2.0
/*
 * xdp:xdp_exception beside the bpf events: an XDP program that aborts on
 * a veth pair, and the records that name it.
 */
#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "test_helpers.h"

/* rtnetlink: appends an attribute to @nh; rta_end() closes a nest. */
static struct rtattr *rta_add(struct nlmsghdr *nh, int type, const void *data, int len)
{
	struct rtattr *rta = (struct rtattr *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (data)
		memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + RTA_ALIGN(rta->rta_len);
	return rta;
}

static void rta_end(struct nlmsghdr *nh, struct rtattr *rta)
{
	rta->rta_len = (char *)nh + nh->nlmsg_len - (char *)rta;
}

/* A veth pair @a <-> @b, made as "ip link add a type veth peer name b" does. */
static int veth_add(const char *a, const char *b)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char attrs[512];
	} req = {};
	struct rtattr *linkinfo, *data, *peer;
	char reply[4096];
	int sk, ret;

	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.nh.nlmsg_type = RTM_NEWLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK;
	rta_add(&req.nh, IFLA_IFNAME, a, strlen(a) + 1);
	linkinfo = rta_add(&req.nh, IFLA_LINKINFO, NULL, 0);
	rta_add(&req.nh, IFLA_INFO_KIND, "veth", 4);
	data = rta_add(&req.nh, IFLA_INFO_DATA, NULL, 0);
	/* the peer's own ifinfomsg (zeroed), then its attributes */
	peer = rta_add(&req.nh, VETH_INFO_PEER, NULL, sizeof(struct ifinfomsg));
	rta_add(&req.nh, IFLA_IFNAME, b, strlen(b) + 1);
	rta_end(&req.nh, peer);
	rta_end(&req.nh, data);
	rta_end(&req.nh, linkinfo);

	sk = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (sk < 0)
		return -errno;
	ret = send(sk, &req, req.nh.nlmsg_len, 0) < 0 ? -errno : 0;
	if (!ret && recv(sk, reply, sizeof(reply), 0) > 0) {
		struct nlmsgerr *err = NLMSG_DATA((struct nlmsghdr *)reply);

		ret = err->error;
	}
	close(sk);
	return ret;
}

/* One broadcast frame out of @dev. */
static int send_frame(const char *dev)
{
	struct sockaddr_ll addr = {
		.sll_family = AF_PACKET,
		.sll_ifindex = if_nametoindex(dev),
		.sll_halen = ETH_ALEN,
	};
	unsigned char frame[60] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02, 0, 0, 0, 0, 1, 0x88, 0xb5,
	};
	int sk = socket(AF_PACKET, SOCK_RAW, 0), ret;

	if (sk < 0)
		return -errno;
	memset(addr.sll_addr, 0xff, ETH_ALEN);
	ret = sendto(sk, frame, sizeof(frame), 0, (struct sockaddr *)&addr, sizeof(addr));
	close(sk);
	return ret == sizeof(frame) ? 0 : -errno;
}

/*
 * xdp:xdp_exception is upstream's and outside the gate: it works on both
 * kernels. A native XDP program on a veth returns XDP_ABORTED for a frame.
 */
TEST(xdp_exception)
{
	struct prog_desc p;
	int prog, link, i, ifindex, err;
	char *trace = NULL;

	err = veth_add("tpv0", "tpv1");
	ASSERT_EQ(0, err) TH_LOG("veth pair: %s (CONFIG_VETH)", strerror(-err));
	/* no IPv6 chatter (DAD, router solicitations): our frame only */
	write_file("/proc/sys/net/ipv6/conf/tpv0/disable_ipv6", "1");
	write_file("/proc/sys/net/ipv6/conf/tpv1/disable_ipv6", "1");
	ASSERT_EQ(0, link_up("tpv0"));
	ASSERT_EQ(0, link_up("tpv1"));
	ifindex = if_nametoindex("tpv1");
	ASSERT_LT(0, ifindex);
	prog = sys_prog_load_ret(BPF_PROG_TYPE_XDP, 0 /* XDP_ABORTED */, 2);
	ASSERT_LE(0, prog) TH_LOG("XDP prog: %s", strerror(errno));
	ASSERT_EQ(0, prog_desc(prog, &p));
	link = sys_xdp_link_create(prog, ifindex, XDP_FLAGS_DRV_MODE);
	ASSERT_LE(0, link) TH_LOG("native XDP on veth: %s", strerror(errno));
	ASSERT_EQ(0, tp_begin("xdp:xdp_exception"));
	ASSERT_EQ(0, send_frame("tpv0")) TH_LOG("AF_PACKET send: %s", strerror(errno));
	/* the peer runs XDP from NAPI: give it a moment */
	for (i = 0; i < 100; i++) {
		trace = trace_read();
		if (strstr(trace, " xdp_exception: "))
			break;
		usleep(20000);
	}
	trace = tp_end();
	ASSERT_EQ(1, count_of(trace, fmt(" xdp_exception: prog_id=%u action=ABORTED ifindex=%d\n",
					 p.id, ifindex)))
		TH_LOG("want prog_id=%u action=ABORTED ifindex=%d in:\n%s", p.id, ifindex, trace);
	close(link);
	close(prog);
}

int main(int argc, char **argv)
{
	bpf_tracepoints_test_setup();
	return test_harness_run(argc, argv);
}
