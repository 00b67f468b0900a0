/* The driver of bench/gitodb.sh: `git cat-file --batch` (or
 * --batch-check with -c) through kernel/git/odb.c, for the object ids read
 * one a line from standard input, in git's output format so that the two
 * outputs can be compared byte for byte.
 *
 *   gitodb-cat [-c] OBJECTS_DIR < ids */
#include <stdio.h>
#include <string.h>

#include "kernel/git/odb.h"

int main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(gitodb) odb = NULL;
	gboolean check = argc > 1 && strcmp(argv[1], "-c") == 0;
	static char outbuf[1 << 20];
	char line[256];

	if (argc != 2 + check) {
		fprintf(stderr, "usage: gitodb-cat [-c] OBJECTS_DIR < ids\n");
		return 2;
	}
	odb = gitodb_open(argv[1 + check], &error);
	if (!odb) {
		fprintf(stderr, "gitodb-cat: %s\n", error->message);
		return 1;
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	while (fgets(line, sizeof(line), stdin)) {
		struct gitoid oid;
		enum gitobj_type type;
		gsize size;

		line[strcspn(line, "\n")] = '\0';
		if (!gitoid_from_hex(&oid, line)) {
			printf("%s missing\n", line);
			continue;
		}
		if (check) {
			if (!gitodb_read_header(odb, &oid, &type, &size,
						&error))
				goto fail;
			printf("%s %s %zu\n", line, gitobj_type_name(type),
			       size);
		} else {
			g_autoptr(GBytes)
				data = gitodb_read(odb, &oid, &type, &error);
			const void *p;

			if (!data)
				goto fail;
			p = g_bytes_get_data(data, &size);
			printf("%s %s %zu\n", line, gitobj_type_name(type),
			       size);
			if (size)
				fwrite(p, 1, size, stdout);
			putchar('\n');
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
fail:
	fflush(stdout);
	fprintf(stderr, "gitodb-cat: %s\n", error->message);
	return 1;
}
