"""Shared kernel primitives: state access, decisions, dice, trace, distances, occupancy.

Everything here is a small compiled function over the ``Tables``/``Battle`` bundles; the
rules that use them live in ``combat``, ``movement``, ``enemy``, ``character`` and ``battle``.

Speed notes (run time and compile time):

* Rule functions are compiled with :data:`kernel`: they never allocate, so they run without
  reference counting; otherwise every call would atomically increment and decrement the 24
  arrays of the two bundles. The few functions that allocate are :data:`allocating`.
* Numba compiles one specialisation per distinct tuple of argument types, and counts int32,
  int64 and every literal value (``0``, ``-1``, ``L.H_STEP`` …) as different types. Kernel
  functions widen integer arguments to int64 before dispatch, so each compiles exactly once.
* They are only called from compiled code, so no Python or C wrappers are generated, and no
  machine code either: a kernel function's LLVM module is only linked into its callers, and the
  entries (``engine``) optimise and generate the whole kernel once (:class:`_KernelLibrary`).
  Numba's default optimised and generated every function's module with all its callees linked
  in, once per level of the call tree: cold compile 85 s → 33 s.
* An entry makes the kernel functions linked into it internal before it optimises them
  (:class:`_EntryLibrary`), so LLVM inlines each rule step that has one caller, and
  :func:`always_inline` marks small ones called from many places (``decide``, ``pay`` …): a call
  saves and restores six registers and checks a status, more than such a body costs. Level-1
  battles 45,471 → 37,715 instructions (x86-64-v3, ``dsim bench --instructions``), outcomes unchanged.
* Kernel code indexes arrays from 0 only, never from the end, so an integer index is used as it is:
  Numba otherwise adds ``len`` to any signed index that might be negative, on every access
  (:func:`_kernel_integer_index`; level-1 battles about 12% faster). With ``NUMBA_BOUNDSCHECK=1`` a negative
  index raises ``IndexError`` instead of reading from the end (``tests/dstbg/test_kernel_indexing.py``).
"""

from __future__ import annotations

import ctypes
import hashlib
from pathlib import Path
from types import FunctionType

import numpy as np
import llvmlite.binding as ll
import llvmlite.ir as llvmir
from numba.core import cgutils, config, sigutils, types
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler import Compiler, DefaultPassBuilder
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_machinery import LoweringPass, register_pass
from numba.core.itanium_mangler import mangle_identifier
from numba.core.dispatcher import _FunctionCompiler
from numba.core.registry import CPUDispatcher
from numba.core.typed_passes import AnnotateTypes
from numba.extending import intrinsic
from numba.np import arrayobj

from dsim.games.dstbg.kernel import context as X
from dsim.games.dstbg.kernel import layout as L
from dsim.games.dstbg.board import walk_distances_nb
from dsim.numba_cache import cache_folder, cache_under
from dsim.rng import randint

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


_wrapping_integer_index = arrayobj.fix_integer_index


def _kernel_integer_index(context, builder, idxty, idx, size):
    """Numba's integer-index fix-up (``a[-1]`` is the last item) everywhere but in kernel functions, whose
    indices are never negative: there the index is used as given, which saves a shift, a mask and an add on
    every array access of the kernel."""
    if idxty.signed and getattr(builder.module, "dsim_plain_indices", False):
        return context.cast(builder, idx, idxty, types.intp)
    return _wrapping_integer_index(context, builder, idxty, idx, size)


arrayobj.fix_integer_index = _kernel_integer_index


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

    _name = "dstbg_kernel_library"
    library_class = _KernelLibrary

    def run_pass(self, state):
        # Pointer arguments are noalias: a kernel function gets the bundles as references to tuples that
        # never change (dsim.numba_ref) and never two views of one array, so LLVM may keep an array's
        # pointer and strides in registers across stores into array data instead of reloading them.
        state.flags.noalias = True
        return super().run_pass(state)


_KernelPipeline = _pipeline_into(_KernelLibraryPass)


class _KernelDispatcher(CPUDispatcher):
    """A dispatcher whose integer arguments are widened to int64 before a specialisation is chosen."""

    def __init__(self, py_func, locals={}, targetoptions={}, pipeline_class=_KernelPipeline):
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

    _name = "dstbg_entry_library"
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


def policy_entry_pipeline(policy, step_reads: int = -1) -> type[Compiler]:
    """A :class:`BatchEntryPipeline` for an entry that plays one policy, the compile result ``policy``: the entry's
    code finds it as ``context.active_code_library.policy`` and calls it directly, which lets LLVM inline it;
    ``step_reads``: the option columns of a move step it reads (:data:`STEP_READS`; :class:`_EntryLibrary`)."""

    class Pipeline(BatchEntryPipeline):
        def define_pipelines(self):
            self.state.entry_policy = (policy, step_reads)
            return super().define_pipelines()

    return Pipeline


def kernel_sources() -> list[Path]:
    """Every source file whose code is compiled into the kernel (its callees included), and ``engine.py``, whose
    entries' compile options (signature, pipeline) Numba's cache key does not cover."""
    here = Path(__file__).resolve().parent
    dsim = here.parents[2]
    return sorted(here.glob("*.py")) + [here.parent / "board.py", here.parent / "policy.py", here.parent / "variants.py",
                                        here.parent / "engine.py", dsim / "variants.py", dsim / "rng.py",
                                        dsim / "numba_ref.py", dsim / "numba_cache.py"]


KERNEL_CACHE_DIR = cache_folder("dstbg-kernel", kernel_sources(), Path(__file__).resolve().parent / "__pycache__")


def kernel_cache():
    """Cache what is compiled inside under :data:`KERNEL_CACHE_DIR` (:mod:`dsim.numba_cache`)."""
    return cache_under(KERNEL_CACHE_DIR)


def compiled_under(folder: str, nrt: bool, dispatcher_class: type[_KernelDispatcher] = _KernelDispatcher):
    """Decorator: a kernel function cached under ``folder``, with or without reference counting (code that
    builds on the battle kernel, e.g. a game played whole, uses its own folder hashed over its sources too)."""
    options = {**_TARGET_OPTIONS, "_nrt": nrt}  # explicit: callees otherwise inherit the caller's setting

    def wrap(func):
        if config.DISABLE_JIT:
            return func
        dispatcher = dispatcher_class(py_func=func, locals={}, targetoptions=options)
        with cache_under(folder):
            dispatcher.enable_caching()
        return dispatcher

    return wrap


def plays_bosses(tables_type: types.Type) -> bool:
    """Whether kernels compiled for this tables type (a reference to one) may meet a boss: the class
    :class:`~dsim.games.dstbg.kernel.context.BossTables`, or any tables type but an encounter's ``Tables``."""
    from dsim.games.dstbg.kernel.context import Tables

    tup = getattr(tables_type, "dtype", tables_type)  # numba_ref.Ref(named tuple) or the named tuple
    return getattr(tup, "instance_class", None) is not Tables


def _without_bosses(t, b, x):
    return 0


class _BossStepDispatcher(_KernelDispatcher):
    """A step of the boss rules (R-12) called from rule code every battle runs: for an encounter's tables
    (:func:`plays_bosses` false; its enemy types hold no boss, so the step is never reached) it compiles as
    ``return 0``, so that an encounter's kernel never types or generates the boss and behaviour-deck code
    (a level-1 cold compile went 30.0 -> 22.4 s). Steps of three arguments ``(t, b, x)``."""

    def __init__(self, py_func, locals={}, targetoptions={}, pipeline_class=_KernelPipeline):
        super().__init__(py_func, locals=locals, targetoptions=targetoptions, pipeline_class=pipeline_class)
        stub = FunctionType(_without_bosses.__code__, _without_bosses.__globals__, f"{py_func.__name__}_without_bosses")
        stub.__qualname__ = f"{py_func.__qualname__}_without_bosses"
        stub.__module__ = py_func.__module__
        self._skipping = _FunctionCompiler(stub, self.targetdescr, targetoptions, locals, pipeline_class)

    def compile(self, sig):
        args, _ = sigutils.normalize_signature(sig)
        if plays_bosses(args[0]):
            return super().compile(sig)
        with global_compiler_lock:  # the stub's result is cached under this signature, as the step's own would be
            steps, self._compiler = self._compiler, self._skipping
            try:
                return super().compile(sig)
            finally:
                self._compiler = steps


def _compiled(nrt: bool):
    """Decorator: a cached battle-kernel function with or without reference counting."""
    return compiled_under(KERNEL_CACHE_DIR, nrt)


kernel = _compiled(nrt=False)
boss_step = compiled_under(KERNEL_CACHE_DIR, False, _BossStepDispatcher)  # decorator: see _BossStepDispatcher
allocating = _compiled(nrt=True)


K_BLACK = 0
K_BLUE = 1
K_ORANGE = 2
K_GREEN = 3


# --- state field addresses ---------------------------------------------------------------
@kernel
def ci(c: int, f: int) -> int:
    """Address of field ``f`` of character ``c``."""
    return L.C_BASE + c * L.C_FIELDS + f


@kernel
def ei(e: int, f: int) -> int:
    """Address of field ``f`` of enemy slot ``e``."""
    return L.E_BASE + e * L.E_FIELDS + f


@kernel
def ni(n: int, f: int) -> int:
    """Address of field ``f`` of node ``n``."""
    return L.N_BASE + n * L.N_FIELDS + f


@kernel
def running(b) -> bool:
    """True while neither side has won (every rule step checks this, F-8.1 / R-3.3)."""
    return b.st[L.G_OUTCOME] == L.OUT_RUNNING


# --- trace ---------------------------------------------------------------------------------
@cold
@kernel
def record_event(b, kind: int, actor: int, ev: int, a: int, c: int, d: int, e: int, dice0: int) -> None:
    """Append one event and a snapshot of the state to the trace (when it has room)."""
    k = b.cursor[1]
    if k >= b.trace.shape[0]:
        return
    row = b.trace[k]
    row[0] = b.st[L.G_ROUND]
    row[1] = kind
    row[2] = actor
    row[3] = ev
    row[4] = a
    row[5] = c
    row[6] = d
    row[7] = e
    row[8] = dice0 if dice0 >= 0 else b.cursor[2]
    row[9] = b.cursor[2] - dice0 if dice0 >= 0 else 0
    for i in range(b.st.shape[0]):
        row[L.EV_FIELDS + i] = b.st[i]
    b.cursor[1] = k + 1


@always_inline
@kernel
def tracing(b) -> bool:
    """Whether the battle records a trace: never in a batch entry (:data:`BATCH`), where the test folds away."""
    return in_batch() == 0 and b.trace.shape[0] > 0


@always_inline
@kernel
def log(b, kind: int, actor: int, ev: int, a: int, c: int, d: int, e: int, dice0: int) -> None:
    """Log one event; inlined so that with tracing off a call costs one comparison, and none in a batch entry."""
    if tracing(b):
        record_event(b, kind, actor, ev, a, c, d, e, dice0)


@kernel
def dice_mark(b) -> int:
    """Position in the trace's dice log, to attach the dice rolled from here to an event."""
    return b.cursor[2]


# --- dice -----------------------------------------------------------------------------------
@kernel
def roll_die(t, b, colour: int) -> int:
    """One die: a forced value if the test script has one left, else a face of the stream."""
    p = b.cursor[0]
    if in_batch() == 0 and p < b.forced.shape[0]:
        v = b.forced[p]
        b.cursor[0] = p + 1
    else:
        v = t.faces[colour, randint(b.rng, 6)]
    q = b.cursor[2]
    if q < b.tdice.shape[0] and tracing(b):
        b.tdice[q] = v
        b.cursor[2] = q + 1
    return v


@always_inline
@kernel
def roll_pool(t, b, k: int, u: int, o: int, g: int) -> int:
    """Roll a pool into the scratch buffers ``b.dice``/``b.dcol``; returns the number of dice."""
    n = 0
    for colour in range(4):
        count = k if colour == K_BLACK else u if colour == K_BLUE else o if colour == K_ORANGE else g
        for _ in range(count):
            if n < b.dice.shape[0]:
                b.dice[n] = roll_die(t, b, colour)
                b.dcol[n] = colour
                n += 1
    return n


@kernel
def pool_sum(b, n: int) -> int:
    """Sum of the first ``n`` dice in the scratch buffer."""
    s = 0
    for i in range(n):
        s += b.dice[i]
    return s


# --- decisions ------------------------------------------------------------------------------
@always_inline
@kernel
def decide(b, policy, hook: int, n: int) -> int:
    """Ask the policy to pick one of the ``n`` option rows in ``b.opts`` (0 if only one)."""
    if n <= 1:
        return 0
    if in_batch() == 0 and b.search.shape[0] > 0:  # a replay of a search (dsim.search); folds away in batches
        choice = search_decide(b, policy, hook, n)
    else:
        choice = np.int64(policy(hook, n, b))  # the battle by reference: one pointer (dsim.games.dstbg.policy)
    if choice < 0 or choice >= n:
        choice = 0
    log(b, L.ACTOR_NONE, -1, L.EV_DECISION, hook, choice, n, b.opts[choice, 0], -1)
    return choice


@kernel
def shuffle_range(b, lo: int, hi: int) -> None:
    """Fisher–Yates shuffle of behaviour-deck positions ``lo .. hi-1`` from the battle's stream."""
    for i in range(hi - 1, lo, -1):
        j = lo + randint(b.rng, i - lo + 1)
        a = b.st[L.D_BASE + i]
        b.st[L.D_BASE + i] = b.st[L.D_BASE + j]
        b.st[L.D_BASE + j] = a


@kernel
def hide_deck(b) -> None:
    """Forget the order of the behaviour cards the players have not seen (R-12.5, R-12.7), for a fair searcher: the
    draw pile's cards are sorted, then shuffled from the stream. Cards drawn this cycle stay where they are, and so do
    the cards of the draw pile (gravestone reveals among them): only their order is redrawn. Once every card has been
    drawn since the deck was built the deck repeats in a known order (R-12.7), and nothing is redrawn; after a heat-up
    reshuffle (R-12.6) the whole draw pile counts as unseen (the searcher relearns the pattern, conservatively)."""
    st = b.st
    size = st[L.G_DECK_LEN]
    lo = st[L.G_DECK_POS]
    if lo >= size or (st[L.G_HEATED] == 0 and st[L.G_CARDS_DRAWN] >= size):
        return
    for i in range(lo + 1, size):  # insertion sort: at most MAX_DECK cards
        card = st[L.D_BASE + i]
        j = i - 1
        while j >= lo and st[L.D_BASE + j] > card:
            st[L.D_BASE + j + 1] = st[L.D_BASE + j]
            j -= 1
        st[L.D_BASE + j + 1] = card
    shuffle_range(b, lo, size)


@kernel
def hide_traps(b) -> None:
    """Redraw which face-down trap token lies on which node with a face-down token (R-7.7), for a fair searcher: the
    tokens are sorted over those nodes, then shuffled among them from the stream."""
    st = b.st
    n_nodes = st[L.G_N_NODES]
    m = 0
    for n in range(n_nodes):
        if face_down_trap(b, n) == 1:
            for z in range(n):  # insertion sort over the face-down nodes seen so far
                if face_down_trap(b, z) == 1 and st[ni(z, L.N_TRAP)] > st[ni(n, L.N_TRAP)]:
                    a = st[ni(z, L.N_TRAP)]
                    st[ni(z, L.N_TRAP)] = st[ni(n, L.N_TRAP)]
                    st[ni(n, L.N_TRAP)] = a
            m += 1
    for i in range(m - 1, 0, -1):
        j = randint(b.rng, i + 1)
        na, nj = -1, -1
        k = 0
        for n in range(n_nodes):
            if face_down_trap(b, n) == 1:
                if k == i:
                    na = n
                if k == j:
                    nj = n
                k += 1
        a = st[ni(na, L.N_TRAP)]
        st[ni(na, L.N_TRAP)] = st[ni(nj, L.N_TRAP)]
        st[ni(nj, L.N_TRAP)] = a


@kernel
def hide(b, hi: int, lo: int) -> None:
    """Resample what the players cannot see from the stream keyed ``hi << 32 | lo``, which the battle then goes on
    drawing from (its dice, and every later shuffle, come from it)."""
    b.rng[0] = (np.uint64(hi) << np.uint64(32)) | np.uint64(lo)
    b.rng[1] = 0
    hide_deck(b)
    hide_traps(b)


@kernel
def search_decide(b, policy, hook: int, n: int) -> int:
    """A decision in a replay of a search (``context.SR_*``): forced answers first; after the last one a rollout
    switches to its own stream and resamples what the players cannot see (``SEARCH_FAIR``) or goes on seeing the
    true ones (``SEARCH_SEEING``); then the policy answers. The true play records its first unforced decision."""
    s = b.search
    k = s[X.SR_ASKED]
    s[X.SR_ASKED] = k + 1
    mode = s[X.SR_MODE]
    forced = s[X.SR_FORCED]
    if k == s[X.SR_HIDE_AT] and (mode == X.SEARCH_ADVANCE or k < forced):  # tests: a battle differing in hidden state
        key, counter = b.rng[0], b.rng[1]
        hide(b, s[X.SR_HIDE_HI], s[X.SR_HIDE_LO])
        b.rng[0] = key
        b.rng[1] = counter
    if k < forced:
        choice = s[X.SR_CHOICES + k]
        if k == forced - 1 and mode == X.SEARCH_FAIR:
            hide(b, s[X.SR_KEY_HI], s[X.SR_KEY_LO])
        return choice
    choice = np.int64(policy(hook, n, b))
    if k == forced and mode == X.SEARCH_ADVANCE:
        s[X.SR_HOOK] = hook
        s[X.SR_OPTIONS] = n
        s[X.SR_BASE] = choice
        s[X.SR_DRAWN] = b.st[L.G_CARDS_DRAWN]
    return choice


@always_inline
@kernel
def decide_for_enemy(t, b, policy, hook: int, n: int) -> int:
    """A players' choice made on an enemy's behalf, answered per ``players_choice_policy`` (A-41)."""
    if n <= 1:
        return 0
    mode = t.variants[L.V_PLAYERS_CHOICE]
    if mode == 1:
        return np.int64(randint(b.rng, n))
    b.st[L.G_ADVERSARIAL] = 1 if mode == 2 else 0
    choice = decide(b, policy, hook, n)
    b.st[L.G_ADVERSARIAL] = 0
    return np.int64(choice)


@always_inline
@kernel
def set_opt(b, i: int, a: int, c: int, d: int, e: int, f: int, g: int, h: int, k: int) -> None:
    """Fill option row ``i``."""
    o = b.opts[i]
    o[0] = a
    o[1] = c
    o[2] = d
    o[3] = e
    o[4] = f
    o[5] = g
    o[6] = h
    o[7] = k
    o[8] = 0


# --- distances and occupancy ----------------------------------------------------------------
@kernel
def range_dist(t, b, a: int, z: int) -> int:
    """Distance used for range checks (A-17 ``range_metric``)."""
    if t.variants[L.V_RANGE_METRIC] == 1:
        return b.dwalk[a, z]
    return t.steps[a, z]


@kernel
def move_dist(t, b, a: int, z: int) -> int:
    """Distance deciding closer/farther/nearest for movement (A-18 ``move_metric``)."""
    if t.variants[L.V_MOVE_METRIC] == 1:
        return t.steps[a, z]
    return b.dwalk[a, z]


@kernel
def nearest_dist(t, b, a: int, z: int) -> int:
    """Distance deciding "nearest" for attack targets (A-19 ``nearest_for_attacks``)."""
    if t.variants[L.V_NEAREST_FOR_ATTACKS] == 1:
        return move_dist(t, b, a, z)
    return range_dist(t, b, a, z)


@kernel
def blocks_movement(b, n: int) -> bool:
    """Gravestones, chests and intact barrels block walking, enemy moves and pushes (R-7.4–R-7.6, F-7.1)."""
    terr = b.st[ni(n, L.N_TERRAIN)]
    return terr == L.TERRAIN_GRAVESTONE or terr == L.TERRAIN_CHEST or terr == L.TERRAIN_BARREL


@kernel
def face_down_trap(b, n: int) -> int:
    """1 if node ``n`` holds a trap token still face down (R-7.7), else 0. Both fields are read and combined
    without a branch: whether a node hides a trap is the kind of test a branch predictor keeps missing."""
    return int((b.st[ni(n, L.N_TRAP)] >= 0) & (b.st[ni(n, L.N_TRAP_UP)] == 0))


@always_inline
@kernel
def figures_at(b, n: int) -> int:
    """Number of living figures on node ``n`` (R-2.6 limit is 3), kept in ``b.figs`` by :func:`count_figures`
    and :func:`move_figure`: the node limit asks at every placement, where counting every figure cost more."""
    return b.figs[n]


@always_inline
@kernel
def clear(a, n: int) -> None:
    """``a[:n] = 0`` for a buffer of at least ``n`` elements. With ``n`` a constant at the call, LLVM stores the
    zeros inline: ``a[:] = 0`` calls ``memset`` for the buffer's length, and for a few dozen bytes the call cost
    more than the stores (a battle's small resets took 2.6% of its time, 0.6% of its instructions)."""
    for i in range(n):
        a[i] = 0


@kernel
def count_figures(b) -> None:
    """Count the living figures placed on each node into ``b.figs`` (the battle's start: after setup places
    the enemies, or a hand-placed state)."""
    st = b.st
    clear(b.figs, L.MAX_NODES)
    for c in range(st[L.G_N_CHARS]):
        if st[ci(c, L.C_ALIVE)] == 1 and st[ci(c, L.C_POS)] >= 0:
            b.figs[st[ci(c, L.C_POS)]] += 1
    for e in range(st[L.G_N_ENEMIES]):
        if st[ei(e, L.E_ALIVE)] == 1 and st[ei(e, L.E_POS)] >= 0:
            b.figs[st[ei(e, L.E_POS)]] += 1


@always_inline
@kernel
def move_figure(b, src: int, dest: int) -> None:
    """A living figure leaves node ``src`` for ``dest`` (−1: off the board, as at a death), in ``b.figs``."""
    if src >= 0:
        b.figs[src] -= 1
    if dest >= 0:
        b.figs[dest] += 1


@kernel
def bosses_at(t, b, n: int) -> int:
    """Number of living boss figures on node ``n`` (R-2.7 limit is 1)."""
    st = b.st
    cnt = 0
    for e in range(st[L.G_N_ENEMIES]):
        if st[ei(e, L.E_ALIVE)] == 1 and st[ei(e, L.E_POS)] == n:
            if t.etypes[st[ei(e, L.E_TYPE)], L.ET_IS_BOSS] == 1:
                cnt += 1
    return cnt


@allocating
def recompute_walk(t, b) -> None:
    """All-pairs walk distances that never pass through blocking terrain (A-18 default); called
    at setup and again after a barrel is destroyed."""
    n = t.steps.shape[0]
    blocked = np.zeros(n, np.bool_)
    for x in range(n):
        blocked[x] = blocks_movement(b, x)
    dist = walk_distances_nb(t.neighbour, blocked)
    if b.dwalk.shape[0] < n or b.dwalk.shape[1] < n:
        raise ValueError("the battle's walk-distance buffer is smaller than the board")
    copy_distances(b.dwalk, dist.astype(np.int32), n)  # the board's distances are int16
    b.st[L.G_BARRELS_CHANGED] = 0


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


_copy_same = _copy_same_py if config.DISABLE_JIT else _memcpy_same


STEP_READS = "dsim_dstbg_step_reads"
"""A constant each entry defines (:class:`_EntryLibrary`): the option columns of a move step its policy reads, a bit
each (``@policy_function(reads={"step": …})``), -1 for all; ``step_features`` works out only those."""
_STEP_READS_ALL = ctypes.c_int64(-1)  # the value for other compiled code that links step_features (tests)
ll.add_symbol(STEP_READS, ctypes.addressof(_STEP_READS_ALL))


BATCH = "dsim_dstbg_batch"
"""A constant each entry defines (:class:`_EntryLibrary`): 1 in a batch entry (:class:`BatchEntryPipeline`), whose
battles have no trace and no forced dice, so that :func:`tracing` and :func:`roll_die`'s forced-dice test fold away;
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


@kernel
def copy_distances(dst, src, n: int) -> None:
    """``dst[:n, :n] = src[:n, :n]``: one ``memcpy`` when both have ``n`` rows of one width, as a battle's own
    buffers and its tables do; element by element otherwise (a game played whole keeps buffers sized for its
    largest board; a board's fresh walk distances are ``n`` × ``n``)."""
    if dst.shape[0] == n and src.shape[0] == n and dst.shape[1] == src.shape[1]:
        _copy_same(dst, src)
        return
    for x in range(n):  # element by element: a slice assignment compiles a shape-error message, string code
        for y in range(n):
            dst[x, y] = src[x, y]


@kernel
def living_chars(b) -> int:
    """Number of living characters."""
    cnt = 0
    for c in range(b.st[L.G_N_CHARS]):
        cnt += b.st[ci(c, L.C_ALIVE)]
    return cnt


@kernel
def living_enemies(b) -> int:
    """Number of living enemies (bosses included)."""
    cnt = 0
    for e in range(b.st[L.G_N_ENEMIES]):
        cnt += b.st[ei(e, L.E_ALIVE)]
    return cnt


@kernel
def relative_arc(facing: int, direction: int) -> int:
    """Arc bits of a side of the boss base, given as an absolute direction (R-12.8: lines are in both)."""
    rel = (direction - facing) % 8
    if rel == 0:
        return L.ARC_FRONT
    if rel == 1:
        return L.ARC_FRONT | L.ARC_RIGHT
    if rel == 2:
        return L.ARC_RIGHT
    if rel == 3:
        return L.ARC_RIGHT | L.ARC_BACK
    if rel == 4:
        return L.ARC_BACK
    if rel == 5:
        return L.ARC_BACK | L.ARC_LEFT
    if rel == 6:
        return L.ARC_LEFT
    return L.ARC_LEFT | L.ARC_FRONT


@kernel
def arc_centre(facing: int, arcs: int) -> int:
    """The absolute direction at the centre of the first arc in ``arcs`` (front, right, back, left)."""
    if arcs & L.ARC_FRONT:
        return facing
    if arcs & L.ARC_RIGHT:
        return (facing + 2) % 8
    if arcs & L.ARC_BACK:
        return (facing + 4) % 8
    return (facing + 6) % 8


@kernel
def round_side(facing: int, side: int, i: int) -> int:
    """R-12.10: the side at the centre of an arc next to the one a character at ``side`` (a direction) stands
    in, ``i`` 0 counter-clockwise, 1 clockwise: two sides round from an arc's centre, three from a line
    (on a line it is in both arcs already)."""
    step = 2 if (side - facing) % 2 == 0 else 3
    return (side + (8 - step if i == 0 else step)) % 8


@kernel
def char_arc(t, b, c: int, e: int) -> int:
    """Arc(s) of boss ``e`` that character ``c`` stands in: by node (R-12.8), or by its side of the
    base when in the boss's node (R-12.9)."""
    pos = b.st[ci(c, L.C_POS)]
    epos = b.st[ei(e, L.E_POS)]
    facing = b.st[ei(e, L.E_FACING)]
    if pos != epos:
        return t.arcs[facing, epos, pos]
    side = b.st[ci(c, L.C_ARC)]
    return relative_arc(facing, side - 1) if side > 0 else L.ARC_FRONT
