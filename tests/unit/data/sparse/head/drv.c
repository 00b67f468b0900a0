#define __iomem __attribute__((noderef, address_space(__iomem)))
#define __le32 __attribute__((bitwise)) unsigned int
typedef unsigned int __attribute__((bitwise)) le32;

/* a comment that moves every line below */

static int counter;
int probes;

static void write_reg(void __iomem *addr, unsigned int v)
{
	*(volatile unsigned int *)addr = v;
}

unsigned int to_cpu(le32 v)
{
	return v;
}

static void probe(void *p)
{
	write_reg(p, 1);
	counter++;
	probes++;
}

void (*hook)(void *) = probe;
