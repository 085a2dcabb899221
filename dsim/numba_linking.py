"""Numba compile machinery for a kernel built as one unit: kernel functions are linked, never generated on their own;
entries (the functions Python calls) optimise and generate everything they link, once.

Shared: it knows no game. DS:TBG's battle kernel (``dsim/games/dstbg/kernel/jit.py``) and its whole game
(``dsim/games/dstbg_game/kernel.py``) build on it; Bloodborne and Dark Maiden use the plainer
:class:`dsim.numba_cache.KernelCompiler` and could move here when a profile asks for it. It leans on Numba internals
(code libraries, compiler passes, lowering), so it refuses a Numba outside the tested range (:mod:`dsim.numba_version`)
with one line, before it touches any of them.

Speed notes (run time and compile time), measured on DS:TBG's battle kernel:

* Kernel functions are compiled with a decorator from :func:`compiled_under` (``nrt=False``): they never allocate, so
  they run without reference counting; otherwise every call would atomically increment and decrement the arrays of
  the bundles they take. The few functions that allocate use ``nrt=True``.
* Numba compiles one specialisation per distinct tuple of argument types, and counts int32, int64 and every literal
  value (``0``, ``-1`` …) as different types. Kernel functions widen integer arguments to int64 before dispatch
  (:class:`KernelDispatcher`), so each compiles exactly once.
* They are only called from compiled code, so no Python or C wrappers are generated, and no machine code either: a
  kernel function's LLVM module is only linked into its callers, and the entries optimise and generate the whole
  kernel once (:class:`_KernelLibrary`). Numba's default optimised and generated every function's module with all
  its callees linked in, once per level of the call tree: cold compile 85 s → 33 s.
* An entry makes the kernel functions linked into it internal before it optimises them (:class:`_EntryLibrary`), so
  LLVM inlines each rule step that has one caller, and :func:`always_inline` marks small ones called from many
  places: a call saves and restores six registers and checks a status, more than such a body costs. DS:TBG level-1
  battles 45,471 → 37,715 instructions (x86-64-v3, ``dsim bench --instructions``), outcomes unchanged.
* Kernel code indexes arrays from 0 only, never from the end, so an integer index is used as it is: Numba otherwise
  adds ``len`` to any signed index that might be negative, on every access (:func:`_kernel_integer_index`; DS:TBG
  level-1 battles about 12% faster). It is the one process-wide change this module makes to Numba (at import: it
  replaces ``numba.np.arrayobj.fix_integer_index`` by a function that defers to Numba's own for all code but kernel
  functions; ``tests/test_numba_linking.py`` shows that nothing else changes). With ``NUMBA_BOUNDSCHECK=1`` a
  negative index raises ``IndexError`` instead of reading from the end (``tests/dstbg/test_kernel_indexing.py``).
* Two link-time constants, :data:`STEP_READS` and :data:`BATCH`, are process-wide linker symbols (their values for
  compiled code outside an entry); each entry defines its own internal copy, which LLVM folds into its code.
"""

from __future__ import annotations

import numba

from dsim.numba_version import check

check(numba.__version__)  # before any Numba internal is imported: a one-line error, not a failure inside them

import ctypes  # noqa: E402  (after the version check, on purpose)
import hashlib  # noqa: E402

import llvmlite.binding as ll  # noqa: E402
import llvmlite.ir as llvmir  # noqa: E402
from numba.core import cgutils, config, types  # noqa: E402
from numba.core.codegen import JITCodeLibrary  # noqa: E402
from numba.core.compiler import Compiler, DefaultPassBuilder  # noqa: E402
from numba.core.compiler_machinery import LoweringPass, register_pass  # noqa: E402
from numba.core.itanium_mangler import mangle_identifier  # noqa: E402
from numba.core.registry import CPUDispatcher  # noqa: E402
from numba.core.typed_passes import AnnotateTypes  # noqa: E402
from numba.extending import intrinsic  # noqa: E402
from numba.np import arrayobj  # noqa: E402

from dsim.numba_cache import cache_under  # noqa: E402

_TARGET_OPTIONS = {"nopython": True, "boundscheck": None, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}


def _widen(ty: types.Type) -> types.Type:
    """int64 for any integer or integer-literal argument type; other types unchanged."""
    if isinstance(ty, types.Literal):
        ty = ty.literal_type
    return types.int64 if isinstance(ty, types.Integer) else ty


class _KernelLibrary(JITCodeLibrary):
    """The code of a kernel function, which only compiled callers use: its LLVM module is kept, not
    optimised, for linking into them, and never made into machine code of its own.

    Numba links every callee's module into its caller, optimises the result and makes it machine
    code, at every level of the call tree: most of a cold compile went into optimising and
    generating the same kernel code once per level. Now the entries (the batch and single-battle
    functions) optimise and generate everything they link, once. Cached as that module plus an
    object code holding only the environment pointers (:meth:`serialize_using_object_code`)."""

    def _optimize_final_module(self):
        pass  # the entry that links this module optimises it

    def _finalize_final_module(self):
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True

    @property
    def codegen(self):
        return _NoEnvCodegen(self._codegen)

    def serialize_using_object_code(self):
        """A cache entry of the usual kind: the module to link, and as object code a module that only
        defines the environment pointers, which Numba sets when it loads the function."""
        self._ensure_finalized()
        envs = self._codegen._create_empty_module(self.name)
        for gv in self._final_module.global_variables:
            if gv.name.startswith("_ZN08NumbaEnv") and not gv.is_declaration:
                var = llvmir.GlobalVariable(envs, cgutils.voidptr_t, name=gv.name)
                var.linkage = "common"
                var.initializer = cgutils.get_null_value(cgutils.voidptr_t)
        obj = self._codegen._tm.emit_object(ll.parse_assembly(str(envs)))
        return (self.name, "object", (obj, self._get_module_for_linking().as_bitcode()))

    def create_ir_module(self, name):
        """The module a kernel function is lowered into, marked for :func:`_kernel_integer_index`."""
        module = super().create_ir_module(name)
        module.dsim_plain_indices = True
        return module


_wrapping_integer_index = getattr(arrayobj.fix_integer_index, "__wrapped__", arrayobj.fix_integer_index)  # Numba's own


def _kernel_integer_index(context, builder, idxty, idx, size):
    """Numba's integer-index fix-up (``a[-1]`` is the last item) everywhere but in kernel functions, whose
    indices are never negative: there the index is used as given, which saves a shift, a mask and an add on
    every array access of the kernel."""
    if idxty.signed and getattr(builder.module, "dsim_plain_indices", False):
        return context.cast(builder, idx, idxty, types.intp)
    return _wrapping_integer_index(context, builder, idxty, idx, size)


_kernel_integer_index.__wrapped__ = _wrapping_integer_index
arrayobj.fix_integer_index = _kernel_integer_index  # the one process-wide change (module docstring)


class _NoEnvCodegen:
    """The codegen as a :class:`_KernelLibrary`'s users see it: the function has no machine code, so
    there is no environment pointer to set (kernel code never touches Python objects)."""

    def __init__(self, codegen):
        self._codegen = codegen

    def set_env(self, env_name, env):
        pass

    def __getattr__(self, name):
        return getattr(self._codegen, name)


class _LibraryPass(LoweringPass):
    """Lower into a library of class :attr:`library_class` (runs just before native lowering creates a plain one)."""

    library_class: type[JITCodeLibrary] = JITCodeLibrary

    def __init__(self):
        LoweringPass.__init__(self)

    def run_pass(self, state):
        if state.library is None:
            state.library = self.library_class(state.targetctx.codegen(), state.func_id.func_qualname)
            state.library.enable_object_caching()
        return True


def _pipeline_into(library_pass: type[_LibraryPass]) -> type[Compiler]:
    """Numba's nopython pipeline with ``library_pass`` (a ``njit(pipeline_class=…)``)."""

    class Pipeline(Compiler):
        def define_pipelines(self):
            pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
            pm.add_pass_after(library_pass, AnnotateTypes)
            pm.finalize()
            return [pm]

    Pipeline.__doc__ = f"Numba's nopython pipeline, lowering into a :class:`{library_pass.library_class.__name__}`."
    return Pipeline


@register_pass(mutates_CFG=False, analysis_only=False)
class _KernelLibraryPass(_LibraryPass):
    """Lower into a :class:`_KernelLibrary`, with noalias pointer arguments."""

    _name = "dsim_kernel_library"
    library_class = _KernelLibrary

    def run_pass(self, state):
        # Pointer arguments are noalias: a kernel function gets the bundles as references to tuples that
        # never change (dsim.numba_ref) and never two views of one array, so LLVM may keep an array's
        # pointer and strides in registers across stores into array data instead of reloading them.
        state.flags.noalias = True
        return super().run_pass(state)


KernelPipeline = _pipeline_into(_KernelLibraryPass)


class KernelDispatcher(CPUDispatcher):
    """A dispatcher whose integer arguments are widened to int64 before a specialisation is chosen."""

    def __init__(self, py_func, locals={}, targetoptions={}, pipeline_class=KernelPipeline):
        super().__init__(py_func, locals=locals, targetoptions=targetoptions, pipeline_class=pipeline_class)

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(_widen(a) for a in args), kws)


_ENTRY_ATTRIBUTES: dict[str, tuple[str, ...]] = {}  # symbol head of a kernel function: its LLVM attributes in an entry


def _mark(func, *attributes: str):
    """Give kernel function ``func`` these LLVM function attributes where an entry links it."""
    py = getattr(func, "py_func", func)
    _ENTRY_ATTRIBUTES["_Z" + mangle_identifier(f"{py.__module__}.{py.__qualname__}")[:-1]] = attributes
    return func


def always_inline(func):
    """Decorator over :data:`kernel`: LLVM inlines the function at every call site when it optimises an entry,
    for a small function called often from many places, whose call (register saves, restores, status checks)
    costs more than its body; unlike Numba's own ``inline="always"`` (a copy of the function's IR typed and lowered
    again in each caller) it costs no compile time per call site."""
    return _mark(func, "alwaysinline")


def cold(func):
    """Decorator over :data:`kernel`: a function off the hot path (the trace recorder), never inlined, so its
    code is generated once instead of at each of its call sites."""
    return _mark(func, "noinline", "cold")


class _EntryLibrary(JITCodeLibrary):
    """The code of an entry (a batch or single-battle function called from Python): before its module is
    optimised, the kernel functions linked into it become internal, so that LLVM may inline a function into
    its only caller (most rule steps have one) and drop its own copy, as for static functions in C. Linked
    kernel modules define them ``linkonce_odr`` (for linking into other callers), which the inliner treats
    as possibly used elsewhere: every rule step stayed a call with its register saves and status checks.

    The copies that stay functions are renamed for this entry: LLVM may change an internal function's calling
    convention and arguments, and the JIT keeps one symbol table for the process, internal names included, so
    under its own name such a copy would be what a later module's call to that function is bound to.

    One optimisation pass: Numba's extra "cheap" pass before it only gathers reference-count operations
    into fewer functions; the pass that runs ends with Numba's reference-count pruning as before (the entry
    itself allocates the battle buffers). No loop or SLP vectorisation: the kernel's loops run over two to
    eight figures, directions or dice, where vector code only adds run-time checks and remainders (level-1
    battles count the same instructions without it, and the entry compiles 1.2 s faster).

    An entry compiled for one policy (:func:`policy_entry_pipeline`) calls it directly, and inlines it at every
    decision: with the hook a constant there, only that hook's branch of the policy remains."""

    policy = None  # the compile result of the policy this entry is compiled for, if any
    step_reads = -1  # the option columns of a move step that policy reads (STEP_READS)
    batch = 0  # 1 in a batch entry (BATCH)

    def _define_constants(self, module) -> None:
        """Define :data:`STEP_READS` and :data:`BATCH` in the entry's module, internal and constant, where its code
        reads them."""
        read = {variable.name for variable in module.global_variables}
        for name, value in ((STEP_READS, self.step_reads), (BATCH, self.batch)):
            if name not in read:
                continue
            definition = self._codegen._create_empty_module(self.name)
            variable = llvmir.GlobalVariable(definition, llvmir.IntType(64), name)
            variable.initializer = llvmir.Constant(llvmir.IntType(64), value)
            variable.global_constant = True
            module.link_in(ll.parse_assembly(str(definition)))
            module.get_global_variable(name).linkage = ll.Linkage.internal

    def _optimize_final_module(self):
        module = self._final_module
        self._define_constants(module)
        own = sorted(f.name for f in module.functions if not f.is_declaration and f.linkage == ll.Linkage.external)
        policy = self.policy.fndesc.mangled_name if self.policy is not None else ""
        own.append(policy)  # entries of one function for two policies differ only in the policy
        suffix = ".entry." + hashlib.sha256(" ".join(own).encode()).hexdigest()[:12]
        internal = set()
        for func in module.functions:
            if func.is_declaration or func.linkage != ll.Linkage.linkonce_odr or not func.name.startswith("_Z"):
                continue
            func.linkage = ll.Linkage.internal
            internal.add(func.name)
            if func.name == policy:
                func.add_function_attribute("alwaysinline")
            for head, attributes in _ENTRY_ATTRIBUTES.items():
                if func.name.startswith(head) and func.name[len(head)] in "BE":
                    for attribute in attributes:
                        func.add_function_attribute(attribute)
        passes, builder = self._codegen._module_pass_manager(loop_vectorize=False, slp_vectorize=False)
        passes.run(module, builder)
        for func in [f for f in module.functions if f.name in internal]:
            func.name += suffix
        for variable in module.global_variables:
            if variable.name in (STEP_READS, BATCH):  # folded into the code, unless the optimiser kept it
                variable.name += suffix


@register_pass(mutates_CFG=False, analysis_only=False)
class _EntryLibraryPass(_LibraryPass):
    """Lower an entry into an :class:`_EntryLibrary`."""

    _name = "dsim_entry_library"
    library_class = _EntryLibrary

    def run_pass(self, state):
        super().run_pass(state)
        state.library.batch = state.get("entry_batch", 0)
        policy = state.get("entry_policy")
        if policy is not None:
            state.library.policy, state.library.step_reads = policy
            state.library.add_linking_library(state.library.policy.library)
        return True


EntryPipeline = _pipeline_into(_EntryLibraryPass)  # njit(pipeline_class=EntryPipeline) for an entry


class BatchEntryPipeline(EntryPipeline):
    """An :data:`EntryPipeline` for a batch entry, whose battles never trace nor take forced dice (:data:`BATCH`)."""

    def define_pipelines(self):
        self.state.entry_batch = 1
        return super().define_pipelines()


def policy_entry_pipeline(policy, step_reads: int = -1, batch: int = 1) -> type[Compiler]:
    """An :data:`EntryPipeline` for an entry that plays one policy, the compile result ``policy``: the entry's
    code finds it as ``context.active_code_library.policy`` and calls it directly, which lets LLVM inline it;
    ``step_reads``: the option columns of a move step it reads (:data:`STEP_READS`; :class:`_EntryLibrary`);
    ``batch``: the entry's :data:`BATCH` (1 a batch entry, 2 a search entry)."""

    class Pipeline(EntryPipeline):
        def define_pipelines(self):
            self.state.entry_policy = (policy, step_reads)
            self.state.entry_batch = batch
            return super().define_pipelines()

    return Pipeline


def compiled_under(folder: str, nrt: bool, dispatcher_class: type[KernelDispatcher] = KernelDispatcher):
    """Decorator: a kernel function cached under ``folder`` (a :func:`dsim.numba_cache.cache_folder` hashed over
    the kernel's sources), with or without reference counting."""
    options = {**_TARGET_OPTIONS, "_nrt": nrt}  # explicit: callees otherwise inherit the caller's setting

    def wrap(func):
        if config.DISABLE_JIT:
            return func
        dispatcher = dispatcher_class(py_func=func, locals={}, targetoptions=options)
        with cache_under(folder):
            dispatcher.enable_caching()
        return dispatcher

    return wrap


@intrinsic
def _memcpy_same(typingctx, dst, src):
    """``dst[...] = src`` as one ``memcpy``, for C-ordered arrays of one shape (the caller checks) and dtype: the
    entries are built without loop vectorisation, so an element-by-element copy stays one element at a time."""
    if not (isinstance(dst, types.Array) and dst == src and dst.layout == "C"):
        return None

    def codegen(context, builder, signature, args):
        target, source = (context.make_array(dst)(context, builder, value) for value in args)
        cgutils.raw_memcpy(builder, target.data, source.data, source.nitems, source.itemsize)

    return types.void(dst, src), codegen


def _copy_same_py(dst, src) -> None:
    dst[...] = src


copy_same = _copy_same_py if config.DISABLE_JIT else _memcpy_same  # dst[...] = src, one memcpy


STEP_READS = "dsim_entry_step_reads"
"""A constant each entry defines (:class:`_EntryLibrary`): the option columns of a move step its policy reads, a bit
each (``@policy_function(reads={"step": …})``), -1 for all; DS:TBG's ``step_features`` works out only those."""
_STEP_READS_ALL = ctypes.c_int64(-1)  # the value for other compiled code that links step_features (tests)
ll.add_symbol(STEP_READS, ctypes.addressof(_STEP_READS_ALL))


BATCH = "dsim_entry_batch"
"""A constant each entry defines (:class:`_EntryLibrary`): 1 in a batch entry (:class:`BatchEntryPipeline`), whose
battles have no trace and no forced dice, so that code reading it (DS:TBG's ``tracing``, ``roll_die``'s forced-dice test) folds away;
2 in a search entry of one policy (no trace, no forced dice, but a search log: DS:TBG's ``decide`` reads it);
0 in the single-battle entries."""
_BATCH_NO = ctypes.c_int64(0)  # the value for other compiled code
ll.add_symbol(BATCH, ctypes.addressof(_BATCH_NO))


def _linked_constant(builder, name: str):
    """Load the int64 constant ``name`` as linked with the calling code (an entry defines it; LLVM folds it)."""
    variable = builder.module.globals.get(name)
    if variable is None:
        variable = llvmir.GlobalVariable(builder.module, llvmir.IntType(64), name)
    return builder.load(variable)


@intrinsic
def _step_reads(typingctx):
    """The value of :data:`STEP_READS` where the calling code is linked."""
    return types.int64(), lambda context, builder, signature, args: _linked_constant(builder, STEP_READS)


@intrinsic
def _in_batch(typingctx):
    """The value of :data:`BATCH` where the calling code is linked."""
    return types.int64(), lambda context, builder, signature, args: _linked_constant(builder, BATCH)


step_reads = (lambda: -1) if config.DISABLE_JIT else _step_reads
in_batch = (lambda: 0) if config.DISABLE_JIT else _in_batch
