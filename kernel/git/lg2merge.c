/* Three-way file merges with libgit2 behind the git layer; see
 * kernel/git/lg2merge.h. */
#include "kernel/git/lg2merge.h"

#include "kernel/git/libgit2.h"

static void input_init(git_merge_file_input *in, GBytes *data, const char *path)
{
	git_merge_file_input_init(in, GIT_MERGE_FILE_INPUT_VERSION);
	in->ptr = g_bytes_get_data(data, &in->size);
	in->path = path;
}

gboolean lg2merge_file(GBytes *ancestor, GBytes *ours, GBytes *theirs,
		       const char *path, GBytes **out)
{
	git_merge_file_input anc, our, their;
	git_merge_file_result res = { 0 };

	*out = NULL;
	input_init(&anc, ancestor, path);
	input_init(&our, ours, path);
	input_init(&their, theirs, path);
	if (git_merge_file(&res, &anc, &our, &their, NULL) < 0)
		return FALSE;
	if (res.automergeable)
		*out = g_bytes_new(res.ptr, res.len);
	git_merge_file_result_free(&res);
	return TRUE;
}
