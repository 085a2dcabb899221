"""Pass a named tuple of arrays to compiled functions by reference, without reference counting.

Numba passes a named tuple by value: every call copies each array's whole descriptor (data
pointer, shape, strides, meminfo …), about 220 machine words for the DS:TBG kernel's two bundles,
and profiling showed most of the kernel's time went into those copies. :func:`ref` stores the
tuple once on the caller's stack and hands callees a pointer; ``r.field`` reads through it, so
kernel code is written the same way for a tuple and a reference. A named tuple inside the tuple is read as a
reference too (``r.inner`` is a pointer into the caller's copy): a callee can be handed part of a bundle, and
nothing else, at no cost.

The pointer is only valid while the function that called :func:`ref` runs and the tuple's arrays
live: a reference must never be returned or stored (the kernel only passes it down), and a tuple
built in that function must be passed to :func:`keep_alive` after its reference's last use, or
Numba frees its arrays right after ``ref``. Under ``NUMBA_DISABLE_JIT=1`` :func:`ref` returns the
tuple itself.

A named tuple class may declare, with :func:`fixed_trailing_dims`, the dimensions after the first of its
C-contiguous arrays that are the same in every instance (a table's columns). ``r.field`` then gives those
shapes and all strides as constants, so indexing multiplies by a constant instead of loading a shape from the
tuple and multiplying by it. It may declare, with :func:`fixed_views`, fields that are views of fixed shape at fixed
offsets into another field (a state vector read by entity): ``r.field`` is then made from that field's data pointer
and constants, never loaded from the tuple, so compiled code addresses every view from one base pointer, as it would
the vector itself. :func:`check_trailing_dims` guards the Python entry points.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
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
        if attr not in fields:
            return None
        field_type = typ.dtype.types[fields.index(attr)]
        return Ref(field_type) if isinstance(field_type, types.BaseNamedTuple) else field_type


_TRAILING_DIMS: dict[type, dict[str, tuple[int, ...]]] = {}


def fixed_trailing_dims(cls: type, dims: Mapping[str, tuple[int, ...]]) -> None:
    """Declare that field ``name`` of every ``cls`` (and subclass) instance is a C-contiguous array whose
    dimensions after the first are ``dims[name]``."""
    unknown = set(dims) - set(getattr(cls, "_fields", ()))
    if unknown:
        raise ValueError(f"{cls.__name__} has no fields {sorted(unknown)}")
    _TRAILING_DIMS[cls] = {name: tuple(int(d) for d in shape) for name, shape in dims.items()}


def _declared(cls: type) -> dict[str, tuple[int, ...]]:
    return next((_TRAILING_DIMS[k] for k in getattr(cls, "__mro__", ()) if k in _TRAILING_DIMS), {})


_VIEWS: dict[type, tuple[str, dict[str, tuple[int, tuple[int, ...]]]]] = {}


def fixed_views(cls: type, base: str, views: Mapping[str, tuple[int, tuple[int, ...]]]) -> None:
    """Declare that field ``name`` of every ``cls`` (and subclass) instance is the C-contiguous view of shape
    ``views[name][1]`` starting at element ``views[name][0]`` of the 1-D array field ``base`` (as
    ``base[offset:offset + size].reshape(shape)``). Compiled code derives it from ``base``'s data pointer."""
    unknown = ({base} | set(views)) - set(getattr(cls, "_fields", ()))
    if unknown:
        raise ValueError(f"{cls.__name__} has no fields {sorted(unknown)}")
    _VIEWS[cls] = (base, {name: (int(offset), tuple(int(d) for d in shape)) for name, (offset, shape) in views.items()})


def _declared_views(cls: type) -> tuple[str, dict[str, tuple[int, tuple[int, ...]]]]:
    return next((_VIEWS[k] for k in getattr(cls, "__mro__", ()) if k in _VIEWS), ("", {}))


def check_trailing_dims(tup: Any) -> None:
    """Raise ``ValueError`` unless each declared array field of ``tup`` is C-contiguous with its declared
    trailing dimensions, and each declared view is its base's memory at the declared offset and shape: compiled
    code reads through those constants, so a mismatch would read wrong memory."""
    base, views = _declared_views(type(tup))
    for name, (offset, shape) in views.items():
        a, whole = getattr(tup, name), getattr(tup, base)
        start = whole.ctypes.data + offset * whole.itemsize if isinstance(whole, np.ndarray) else None
        if not isinstance(a, np.ndarray) or a.shape != shape or not a.flags.c_contiguous or a.ctypes.data != start \
                or a.dtype != whole.dtype or whole.ndim != 1 or offset + a.size > whole.shape[0]:
            raise ValueError(f"{type(tup).__name__}.{name}: expected the view of {base}[{offset}:] of shape {shape}")
    for name, trailing in _declared(type(tup)).items():
        a = getattr(tup, name)
        if not isinstance(a, np.ndarray) or a.shape[1:] != trailing or not a.flags.c_contiguous:
            shape = getattr(a, "shape", type(a).__name__)
            raise ValueError(f"{type(tup).__name__}.{name}: expected a C-contiguous array of shape (n, "
                             f"{', '.join(map(str, trailing))}), got {shape}")


_TUPLE_TYPES: dict[tuple, types.Type] = {}


def typeof_arrays(tup: Any) -> types.Type:
    """``numba.typeof`` of a named tuple of arrays, remembered by what it reads of each array (class, dtype,
    dimensions, layout and flags): it takes ~130 us for a battle's tables, and every batch asks. A tuple with
    a field that is not an array is typed afresh."""
    from numba import typeof

    if not all(isinstance(a, np.ndarray) for a in tup):
        return typeof(tup)
    key = (type(tup), *((type(a), a.dtype, a.ndim, f.c_contiguous, f.f_contiguous, f.writeable, f.aligned)
                        for a in tup for f in (a.flags,)))
    if key not in _TUPLE_TYPES:
        _TUPLE_TYPES[key] = typeof(tup)
    return _TUPLE_TYPES[key]


def _with_constant_dims(context, builder, array_type: types.Array, data, trailing: tuple[int, ...]):
    """The array's data representation ``data`` with its trailing shapes and every stride set to constants."""
    model = context.data_model_manager[array_type]
    shape, strides = model.get_field_position("shape"), model.get_field_position("strides")
    i64 = context.get_value_type(types.intp)
    stride = context.get_abi_sizeof(context.get_data_type(array_type.dtype))
    for k in range(array_type.ndim - 1, -1, -1):
        data = builder.insert_value(data, i64(stride), [strides, k])
        if k > 0:
            data = builder.insert_value(data, i64(trailing[k - 1]), [shape, k])
            stride *= trailing[k - 1]
    return data


def _view_of(context, builder, view_type: types.Array, base_type: types.Array, base, offset: int,
             shape: tuple[int, ...]):
    """The data representation of the view of shape ``shape`` at element ``offset`` of the array ``base`` (its
    data representation): its data pointer moved by a constant, every shape and stride a constant."""
    model, base_model = context.data_model_manager[view_type], context.data_model_manager[base_type]
    i64 = context.get_value_type(types.intp)
    data = cgutils.get_null_value(model.get_data_type())
    for name in ("meminfo", "parent"):
        data = builder.insert_value(data, builder.extract_value(base, [base_model.get_field_position(name)]),
                                    [model.get_field_position(name)])
    pointer = builder.extract_value(base, [base_model.get_field_position("data")])
    data = builder.insert_value(data, builder.gep(pointer, [i64(offset)], inbounds=True),
                                [model.get_field_position("data")])
    itemsize = context.get_abi_sizeof(context.get_data_type(view_type.dtype))
    size = 1
    for d in shape:
        size *= d
    data = builder.insert_value(data, i64(size), [model.get_field_position("nitems")])
    data = builder.insert_value(data, i64(itemsize), [model.get_field_position("itemsize")])
    data = builder.insert_value(data, i64(shape[0]), [model.get_field_position("shape"), 0])
    return _with_constant_dims(context, builder, view_type, data, shape[1:])


@lower_getattr_generic(Ref)
def _ref_getattr(context, builder, typ: Ref, value, attr: str):
    i = typ.dtype.fields.index(attr)
    field_type = typ.dtype.types[i]
    if isinstance(field_type, types.BaseNamedTuple):  # a named tuple inside: a reference to it, nothing copied
        return cgutils.gep_inbounds(builder, value, 0, i)
    base, views = _declared_views(getattr(typ.dtype, "instance_class", None))
    if attr in views and isinstance(field_type, types.Array) and field_type.ndim == len(views[attr][1]):
        j = typ.dtype.fields.index(base)
        base_type = typ.dtype.types[j]
        if isinstance(base_type, types.Array) and base_type.ndim == 1 and base_type.dtype == field_type.dtype:
            data = _view_of(context, builder, field_type, base_type,
                            builder.load(cgutils.gep_inbounds(builder, value, 0, j)), *views[attr])
            return impl_ret_borrowed(context, builder, field_type,
                                     context.data_model_manager[field_type].from_data(builder, data))
    data = builder.load(cgutils.gep_inbounds(builder, value, 0, i))
    trailing = _declared(getattr(typ.dtype, "instance_class", None)).get(attr)
    if trailing is not None and isinstance(field_type, types.Array) and field_type.layout == "C" \
            and field_type.ndim == len(trailing) + 1:
        data = _with_constant_dims(context, builder, field_type, data, trailing)
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
def _refs(typingctx, tup):
    if not (isinstance(tup, types.UniTuple) and isinstance(tup.dtype, types.BaseNamedTuple)):
        return None
    out = types.UniTuple(Ref(tup.dtype), tup.count)

    def codegen(context, builder, signature, args):
        model = context.data_model_manager[tup.dtype]
        slots = []
        for i in range(tup.count):
            slot = cgutils.alloca_once(builder, model.get_data_type())
            builder.store(model.as_data(builder, builder.extract_value(args[0], i)), slot)
            slots.append(slot)
        return context.make_tuple(builder, out, slots)

    return out(tup), codegen


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
#: ``refs(tups)``: a tuple of references, one to each named tuple of the tuple ``tups`` (all of one type), which
#: compiled code may index at run time (``refs(tables)[k]``, DS:TBG's whole game picking a boss's tables).
refs = _identity if config.DISABLE_JIT else _refs
#: ``keep_alive(tup)``: a use of ``tup`` that keeps its arrays alive up to this point (no code).
keep_alive = _nothing if config.DISABLE_JIT else _keep_alive
