#define __iomem __attribute__((noderef, address_space(__iomem)))
#define __le32 __attribute__((bitwise)) unsigned int
typedef unsigned int __attribute__((bitwise)) le32;

int counter;

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
}

void (*hook)(void *) = probe;
