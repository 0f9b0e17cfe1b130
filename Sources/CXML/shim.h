#ifndef UNDERSTUDY_CXML_SHIM_H
#define UNDERSTUDY_CXML_SHIM_H
// libxml2 (Debian libxml2, libxml2.so.2), the parser and XPath engine behind XML body matching
// (`xmlEquals`, `xPath`; WireMock's `equalToXml`, `matchesXPath`). Like CCurl it has no `link`
// and needs no -dev package: the daemon opens libxml2.so.2 with dlopen the first time a stub
// matches XML, so a daemon without XML stubs neither loads libxml2 (and its ICU/lzma
// dependencies) at start-up nor pays for their relocation. FoundationXML, which would link it,
// cost +1.85 M instructions at every start.
//
// The declarations below are the part of libxml2's public, ABI-stable API (tree.h, xpath.h,
// xmlerror.h of libxml2 2.x) that the matcher reads: the leading fields of a node, attribute and
// namespace, a node set, an XPath result and an error, and the entry points dlsym fills.
#include <stddef.h>
#include <dlfcn.h>

typedef unsigned char understudy_xml_char;

typedef struct understudy_xml_ns {
    struct understudy_xml_ns *next;
    int type;
    const understudy_xml_char *href;
    const understudy_xml_char *prefix;
    void *_private;
    void *context;
} understudy_xml_ns;

/// `xmlNode`'s fields (tree.h); `xmlAttr` shares the first ten.
typedef struct understudy_xml_node {
    void *_private;
    int type;
    const understudy_xml_char *name;
    struct understudy_xml_node *children;
    struct understudy_xml_node *last;
    struct understudy_xml_node *parent;
    struct understudy_xml_node *next;
    struct understudy_xml_node *prev;
    void *doc;
    understudy_xml_ns *ns;
    understudy_xml_char *content;
    struct understudy_xml_node *properties; // an element's attributes (xmlAttr, same leading fields)
    understudy_xml_ns *nsDef;
} understudy_xml_node;

/// Node types (xmlElementType) the matcher tells apart.
enum {
    UNDERSTUDY_XML_ELEMENT = 1,
    UNDERSTUDY_XML_ATTRIBUTE = 2,
    UNDERSTUDY_XML_TEXT = 3,
    UNDERSTUDY_XML_CDATA = 4,
    UNDERSTUDY_XML_ENTITY_REF = 5,
    UNDERSTUDY_XML_PI = 7,
    UNDERSTUDY_XML_COMMENT = 8,
    UNDERSTUDY_XPATH_NODESET = 1,
    // XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA: no network,
    // no messages on stderr (errors are read with xmlGetLastError), CDATA merged into text.
    UNDERSTUDY_XML_PARSE_OPTIONS = (1 << 11) | (1 << 5) | (1 << 6) | (1 << 14),
};

typedef struct understudy_xml_node_set {
    int nodeNr;
    int nodeMax;
    understudy_xml_node **nodeTab;
} understudy_xml_node_set;

typedef struct understudy_xpath_object {
    int type;
    understudy_xml_node_set *nodesetval;
} understudy_xpath_object;

typedef struct understudy_xml_error {
    int domain;
    int code;
    char *message;
    int level;
    char *file;
    int line;
    char *str1;
    char *str2;
    char *str3;
    int int1;
    int int2; // the column
} understudy_xml_error;

typedef void (*understudy_xml_structured_error)(void *context, understudy_xml_error *error);
typedef void (*understudy_xml_generic_error)(void *context, const char *message, ...);

typedef struct understudy_xml {
    void *library;
    void (*init_parser)(void);
    void *(*read_memory)(const char *buffer, int size, const char *url, const char *encoding, int options);
    void (*free_doc)(void *doc);
    understudy_xml_node *(*root_element)(void *doc);
    void *(*xpath_new_context)(void *doc);
    void (*xpath_free_context)(void *context);
    int (*xpath_register_ns)(void *context, const understudy_xml_char *prefix, const understudy_xml_char *uri);
    understudy_xpath_object *(*xpath_eval)(const understudy_xml_char *expression, void *context);
    void (*xpath_free_object)(understudy_xpath_object *object);
    void *(*xpath_compile)(const understudy_xml_char *expression);
    void (*xpath_free_comp)(void *compiled);
    understudy_xml_char *(*node_get_content)(const understudy_xml_node *node);
    void *(*buffer_create)(void);
    void (*buffer_free)(void *buffer);
    const understudy_xml_char *(*buffer_content)(const void *buffer);
    int (*node_dump)(void *buffer, void *doc, understudy_xml_node *node, int level, int format);
    understudy_xml_error *(*last_error)(void);
    void (*reset_last_error)(void);
    void (*set_structured_error)(void *context, understudy_xml_structured_error handler);
    void (*set_generic_error)(void *context, understudy_xml_generic_error handler);
    void (**free_function)(void *pointer); // the variable `xmlFree`
} understudy_xml;

static void understudy_xml_ignore_structured(void *context, understudy_xml_error *error) {
    (void)context;
    (void)error;
}
static void understudy_xml_ignore_generic(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

/// Opens libxml2 and fills `api`; 0 when it is not installed or lacks an entry point (then nothing
/// stays open), else 1. Errors are silenced on the calling thread's handlers (libxml2 keeps them
/// per thread): the matcher reads them with `last_error` instead of letting them reach stderr.
static inline int understudy_xml_load(understudy_xml *api) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    api->library = library;
#define UNDERSTUDY_XML_SYMBOL(field, name) \
    *(void **)(&api->field) = dlsym(library, name); \
    if (!api->field) { dlclose(library); api->library = NULL; return 0; }
    UNDERSTUDY_XML_SYMBOL(init_parser, "xmlInitParser")
    UNDERSTUDY_XML_SYMBOL(read_memory, "xmlReadMemory")
    UNDERSTUDY_XML_SYMBOL(free_doc, "xmlFreeDoc")
    UNDERSTUDY_XML_SYMBOL(root_element, "xmlDocGetRootElement")
    UNDERSTUDY_XML_SYMBOL(xpath_new_context, "xmlXPathNewContext")
    UNDERSTUDY_XML_SYMBOL(xpath_free_context, "xmlXPathFreeContext")
    UNDERSTUDY_XML_SYMBOL(xpath_register_ns, "xmlXPathRegisterNs")
    UNDERSTUDY_XML_SYMBOL(xpath_eval, "xmlXPathEvalExpression")
    UNDERSTUDY_XML_SYMBOL(xpath_free_object, "xmlXPathFreeObject")
    UNDERSTUDY_XML_SYMBOL(xpath_compile, "xmlXPathCompile")
    UNDERSTUDY_XML_SYMBOL(xpath_free_comp, "xmlXPathFreeCompExpr")
    UNDERSTUDY_XML_SYMBOL(node_get_content, "xmlNodeGetContent")
    UNDERSTUDY_XML_SYMBOL(buffer_create, "xmlBufferCreate")
    UNDERSTUDY_XML_SYMBOL(buffer_free, "xmlBufferFree")
    UNDERSTUDY_XML_SYMBOL(buffer_content, "xmlBufferContent")
    UNDERSTUDY_XML_SYMBOL(node_dump, "xmlNodeDump")
    UNDERSTUDY_XML_SYMBOL(last_error, "xmlGetLastError")
    UNDERSTUDY_XML_SYMBOL(reset_last_error, "xmlResetLastError")
    UNDERSTUDY_XML_SYMBOL(set_structured_error, "xmlSetStructuredErrorFunc")
    UNDERSTUDY_XML_SYMBOL(set_generic_error, "xmlSetGenericErrorFunc")
    UNDERSTUDY_XML_SYMBOL(free_function, "xmlFree")
#undef UNDERSTUDY_XML_SYMBOL
    api->init_parser();
    return 1;
}

/// Sends libxml2's messages on this thread nowhere (they are per thread in libxml2).
static inline void understudy_xml_silence(const understudy_xml *api) {
    api->set_structured_error(NULL, understudy_xml_ignore_structured);
    api->set_generic_error(NULL, understudy_xml_ignore_generic);
}

static inline void understudy_xml_free(const understudy_xml *api, void *pointer) {
    (*api->free_function)(pointer);
}

#endif
