"""Pass a named tuple of arrays to compiled functions by reference, without reference counting.

Numba passes a named tuple by value: every call copies each array's whole descriptor (data
pointer, shape, strides, meminfo …), about 220 machine words for the DS:TBG kernel's two bundles,
and profiling showed most of the kernel's time went into those copies. :func:`ref` stores the
tuple once on the caller's stack and hands callees a pointer; ``r.field`` reads through it, so
kernel code is written the same way for a tuple and a reference.

The pointer is only valid while the function that called :func:`ref` runs and the tuple's arrays
live: a reference must never be returned or stored (the kernel only passes it down), and a tuple
built in that function must be passed to :func:`keep_alive` after its reference's last use, or
Numba frees its arrays right after ``ref``. Under ``NUMBA_DISABLE_JIT=1`` :func:`ref` returns the
tuple itself.
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils, config, types
from numba.core.datamodel import models, register_default
from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic
from numba.core.typing.templates import AttributeTemplate, infer_getattr
from numba.extending import intrinsic


class Ref(types.Type):
    """Numba type of a pointer to a named tuple (``dtype``) on the caller's stack."""

    def __init__(self, dtype: types.BaseNamedTuple) -> None:
        self.dtype = dtype
        super().__init__(name=f"Ref({dtype})")


@register_default(Ref)
class _RefModel(models.PointerModel):
    """A plain pointer to the tuple's data representation."""


@infer_getattr
class _RefAttributes(AttributeTemplate):
    key = Ref

    def generic_resolve(self, typ: Ref, attr: str) -> types.Type | None:
        fields = typ.dtype.fields
        return typ.dtype.types[fields.index(attr)] if attr in fields else None


@lower_getattr_generic(Ref)
def _ref_getattr(context, builder, typ: Ref, value, attr: str):
    i = typ.dtype.fields.index(attr)
    field_type = typ.dtype.types[i]
    data = builder.load(cgutils.gep_inbounds(builder, value, 0, i))
    return impl_ret_borrowed(context, builder, field_type, context.data_model_manager[field_type].from_data(builder, data))


@intrinsic
def _ref(typingctx, tup):
    if not isinstance(tup, types.BaseNamedTuple):
        return None

    def codegen(context, builder, signature, args):
        model = context.data_model_manager[tup]
        slot = cgutils.alloca_once(builder, model.get_data_type())
        builder.store(model.as_data(builder, args[0]), slot)
        return slot

    return Ref(tup)(tup), codegen


@intrinsic
def _keep_alive(typingctx, tup):
    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(tup), codegen


def _identity(tup: Any) -> Any:
    return tup


def _nothing(tup: Any) -> None:
    return None


#: ``ref(tup)``: a reference to the named tuple ``tup`` for the callees of the calling compiled function.
ref = _identity if config.DISABLE_JIT else _ref
#: ``keep_alive(tup)``: a use of ``tup`` that keeps its arrays alive up to this point (no code).
keep_alive = _nothing if config.DISABLE_JIT else _keep_alive
