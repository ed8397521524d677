"""The kernel model: the op catalogue (`ops`), one cost model per kind of op (`convert`, `shared`,
`global_access`, `tma`, `reduce`, `dot`), shared memory (`memory`), barriers (`sync`), and the audit that walks a
module's ops through them (`audit.analyze_audit`)."""
