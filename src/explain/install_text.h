/* Readings of the text alone about installing torch: what an installer's resolver says
 * about the wheels it found. */
#ifndef DLENV_EXPLAIN_INSTALL_TEXT_H
#define DLENV_EXPLAIN_INSTALL_TEXT_H

#include "explain/explain.h"

/* Adds python_unsupported when uv says a plain torch release ("torch==2.6.0",
 * "torch>=2.7.0") "has no wheels with a matching platform tag": the release has no wheel
 * for this interpreter at all (an Intel Mac after 2.2, an ARM or 32-bit Python), which is
 * the interpreter's fit, not a wheel of another OS asked for by a local tag ("+cpu",
 * "+cu121"), which stays the wheel_tag_mismatch signature's reading. */
void dl_explain_release_without_platform_wheel(dl_explanation *e);

#endif
