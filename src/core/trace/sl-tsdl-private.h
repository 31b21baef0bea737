/* sl-tsdl-private.h: the TSDL lexer, type tree and checks
 *
 * sl-tsdl-lex.c cuts the text into tokens, sl-tsdl.c parses it into
 * types and blocks, sl-tsdl-check.c checks what babeltrace2 2.0.4 cannot
 * survive and computes the packet layouts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "sl-tsdl.h"

G_BEGIN_DECLS

/* Bounds: a metadata file that goes past them is refused (a real trace's
 * stay far below). */
#define TSDL_MAX_TOKENS      (8u << 20)
#define TSDL_MAX_DEPTH       64
#define TSDL_MAX_ARRAY       (G_GUINT64_CONSTANT (1) << 20)
#define TSDL_MAX_ELEMENTS    (G_GUINT64_CONSTANT (1) << 24)
#define TSDL_MAX_MEMBERS     65536

typedef enum
{
  TOK_EOF,
  TOK_IDENT,
  TOK_INT,
  TOK_STRING,
  TOK_CHAR,
  TOK_PUNCT,
} TokKind;

typedef struct
{
  TokKind  kind;
  guint    line;
  gsize    start;
  gsize    end;
  gboolean negative_ok;
  guint64  value;
  gboolean overflow;
  /* names and strings: in TsdlTokens' @texts; punctuation: static */
  const char *text;
} Token;

/* A metadata text's tokens: two allocations (and a few for the texts'
 * chunks), not one or two per token */
typedef struct
{
  Token        *tokens;   /* ending with TOK_EOF */
  guint         n;
  GStringChunk *texts;
} TsdlTokens;

gboolean tsdl_lex       (const char  *text,
                         gsize        len,
                         TsdlTokens  *out,
                         char       **why,
                         guint       *line);
void     tsdl_tokens_clear (TsdlTokens *tokens);

typedef enum
{
  T_INT,
  T_FLOAT,
  T_STRING,
  T_STRUCT,
  T_VARIANT,
  T_ENUM,
  T_ARRAY,
  T_SEQUENCE,
} TKind;

typedef struct _TType TType;

typedef struct
{
  char    *label;
  gint64   lo;
  gint64   hi;
  gboolean is_unsigned;
  guint    line;
} TMapping;

/* @ctf2_name: a CTF 2 member's own name, which field locations use
 * (@name is its role's TSDL name, or NULL) */
typedef struct
{
  char  *name;
  TType *type;
  guint  line;
  char  *ctf2_name;
} TMember;

struct _TType
{
  TKind     kind;
  guint     line;
  guint     refs;

  /* integers, floats, enums (their container) */
  guint     size;
  guint     align;
  gboolean  is_signed;
  int       byte_order;      /* 0 native, 1 little, 2 big */
  char     *map_clock;
  guint     exp_dig;
  guint     mant_dig;

  /* structs, variants */
  GPtrArray *members;        /* TMember */
  char      *tag;            /* variant: the selector's path */

  /* enums */
  TType     *container;
  GArray    *mappings;       /* TMapping */

  /* arrays and sequences */
  TType     *element;
  guint64    length;
  char      *length_path;

  /* CTF 2 (sl-ctf2.c, for sl-ctf-retime.c): an integer in LEB128; a
   * variant that may hold nothing (an optional); the field location of
   * a variant's selector or a sequence's length: @loc_origin a TLoc, its
   * path names from there (NULL: the parent structure). A CTF 2
   * variant's @mappings give each option (by member name) its selector
   * ranges. */
  gboolean   leb128;
  gboolean   optional;
  int        loc_origin;
  GPtrArray *loc_path;
};

/* where a CTF 2 field location starts */
typedef enum
{
  T_LOC_NONE,
  T_LOC_RELATIVE,
  T_LOC_PACKET_HEADER,
  T_LOC_PACKET_CONTEXT,
  T_LOC_EVENT_HEADER,
  T_LOC_EVENT_COMMON_CONTEXT,
  T_LOC_EVENT_SPECIFIC_CONTEXT,
  T_LOC_EVENT_PAYLOAD,
} TLoc;

TType   *tsdl_type_new   (TKind  kind,
                          guint  line);
TType   *tsdl_type_ref   (TType *t);
void     tsdl_type_unref (TType *t);

void     tsdl_member_free (gpointer m);
void     tsdl_mapping_clear (gpointer m);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TType, tsdl_type_unref)

typedef struct
{
  guint64  id;
  gboolean has_id;
  TType   *packet_context;
  TType   *event_header;
  TType   *event_context;
  guint    line;
  SlTsdlLayout layout;
} TStream;

typedef struct
{
  char    *name;
  guint64  id;
  gboolean has_id;
  guint64  stream_id;
  gboolean has_stream_id;
  TType   *context;
  TType   *fields;
  guint    line;
} TEvent;

struct _SlTsdl
{
  guint        major;
  guint        minor;
  gboolean     has_uuid;
  guint8       uuid[16];
  int          byte_order;
  TType       *packet_header;
  GHashTable  *env;
  GPtrArray   *clocks;   /* SlTsdlClock */
  GPtrArray   *streams;  /* TStream */
  GPtrArray   *events;   /* TEvent */
  SlTsdlLayout header_layout;
  guint64      max_static_bytes;
  GPtrArray   *warnings; /* char *, "line N: …": read, but maybe not as meant */
};

void     tsdl_init         (SlTsdl  *tsdl);
gboolean tsdl_check        (SlTsdl  *tsdl,
                            char   **why,
                            guint   *line);
void     tsdl_compute_layouts (SlTsdl *tsdl);
/* a type's alignment in bits (a compound's: its members' largest) */
guint    tsdl_type_align   (const TType *t);
/* babeltrace2's names lose one leading '_' ("_x" and "x" are one) */
const char *tsdl_strip_name (const char *name);
/* a clock's index by its name, or -1 */
int      tsdl_clock_index  (const SlTsdl *t,
                            const char   *name);

G_END_DECLS
