// liblo, for glout's OSC control (--osc): the low-level message calls only (glout reads
// and answers the socket itself).
#include <stddef.h>
#include <sys/types.h>
#include <lo/lo_lowlevel.h>
