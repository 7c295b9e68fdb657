/* diffhtml.c - rp-report --diff --format html (diffhtml.h). */
#include "report/diffhtml.h"

#include <stdint.h>
#include <stdlib.h>
#include "report/html_js.h"
#include "report/json.h"

int diffview_html(FILE *f, const rp_diffrun *a, const rp_diffrun *b)
{
    char *json = NULL;
    size_t nj = 0;
    FILE *m = open_memstream(&json, &nj);
    if (!m)
        return -1;
    /* every context: the flame graph is built from the whole list */
    int rc = diffview_json(m, a, b, UINT32_MAX, report_json_string);
    if (fclose(m) != 0 || rc != 0) {
        free(json);
        return -1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width\">\n"
          "<title>rpprof: two runs compared</title>\n<style>", f);
    fputs(rp_html_css, f);
    fputs("</style></head>\n<body data-errors=\"0\">\n<div id=\"app\">loading&hellip;</div>\n"
          "<script type=\"application/json\" id=\"rpdiff\">", f);
    /* JSON inside <script>: no "</script>" can end it early */
    for (size_t i = 0; i < nj; i++) {
        if (json[i] == '<')
            fputs("\\u003c", f);
        else
            fputc(json[i], f);
    }
    fputs("</script>\n<script>", f);
    fputs(rp_diff_js, f);
    fputs("</script>\n</body></html>\n", f);
    free(json);
    return ferror(f) ? -1 : 0;
}
