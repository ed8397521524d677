"""The analyses: facts about linear layouts and kernels, as frozen records that `reports/` words and `render/`
draws. They take `LinearLayout`s (or parsed TTGIR modules), never text, and a `targets.Target`, never a target's
name (the command, `sources` or the notebook API resolves it once); they import neither the input pipeline
(`inputs`, `parsing`) nor the presentation (`reports`, `render`) nor click; their errors name no command-line flag.

Each module behind a command has one entry point, `analyze_<module>`:

    info.analyze_info(attr, ll, shape, element, element_bits) -> LayoutInfo      ttlayout info
    bank.analyze_bank(reg_ll, smem_ll, bitwidth, target) -> BankReport           Triton's bank model
    shared_access.analyze_shared_access(reg_ll, smem_ll, bitwidth, target, padding)
        -> BankReport (with .gpu) | PaddedBankReport                             ttlayout bank
    convert.analyze_convert(src_ll, dst_ll, bitwidth, target) -> ConvertReport   ttlayout convert
    swizzle.analyze_swizzle(write_ll, read_ll, bitwidth, target) -> Suggestion   ttlayout swizzle
    audit.analyze_audit(modules, target) -> list[ModuleAudit]                    ttlayout audit

`lookup` answers the point questions of `ttlayout lookup`, one function each (`holders`, `thread_elements`,
`shared_offsets`, `element_at`). The other modules are the models those build on: `access` (vectorisation and
wavefronts), `targets` (each GPU's banks and phases), `subspaces` (GF(2) subspace helpers), `convert_shuffle` and
`convert_smem` (the two costly paths of a conversion), `shared_access` (what the GPU does for each register <->
shared-memory access as Triton 3.9 compiles it: `local_access`, `local_access_of`, `convert_access`), `axis`
(Triton's AxisInfo), `allocation` (shared-memory liveness and offsets).
"""
