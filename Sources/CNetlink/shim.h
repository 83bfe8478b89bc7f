// rtnetlink's message layouts and constants, which Swift's Glibc module does not import.
// Headers only: nothing to link. <linux/if.h> is left out: it clashes with glibc's <net/if.h>,
// which Glibc already imports (IFF_UP, IFF_RUNNING, IFF_LOOPBACK come from there).
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/if_link.h>
