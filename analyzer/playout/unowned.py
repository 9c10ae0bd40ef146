"""Arrays the kernels take without owning them: a view numba counts no references on.

numba counts the references to every array a compiled function takes, at every inlined call:
two calls into its runtime per array, which stay in the loops over the deals (its pruning
does not reach them). On the table's bundle of 31 arrays they made a greedy playout eight
times slower. The kernels' entry points (:func:`.words.entry_point`) hand the kernels they
call a :class:`View` of each C-contiguous array instead: its data pointer and shape, and
nothing to count. The kernels use arrays only as views can be used — an element read or
written at integer indices (negative ones count from the end, as numpy's), a row of an array
(``tables[j]``), ``.shape`` and ``len`` — and run unchanged, uncompiled, on numpy arrays.

Safe because a view lives no longer than the call that made it: the caller's arrays outlive
the call, and the kernels return words, never arrays.

Everything here is numba's extension API (``numba.extending``) and llvmlite's IR builder.
"""

from __future__ import annotations

import functools
import operator
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.errors import TypingError
from numba.extending import (
    intrinsic,
    make_attribute_wrapper,
    models,
    overload,
    register_model,
)

MAX_DIMENSIONS = 3
"""The most dimensions of an array a kernel takes (the drawing's (T, 78, h) tables)."""


class View(types.Type):
    """A C-contiguous array of ``dtype`` and ``ndim`` dimensions, seen through its data
    pointer and shape."""

    def __init__(self, dtype: types.Type, ndim: int) -> None:
        self.dtype = dtype
        self.ndim = ndim
        super().__init__(name=f"View({dtype}, {ndim}d)")

    @property
    def key(self) -> tuple[types.Type, int]:
        return self.dtype, self.ndim


@register_model(View)
class _ViewModel(models.StructModel):
    def __init__(self, dmm: Any, fe_type: View) -> None:
        members = [
            ("data", types.CPointer(_stored(fe_type.dtype))),
            ("shape", types.UniTuple(types.intp, fe_type.ndim)),
        ]
        super().__init__(dmm, fe_type, members)


def _stored(dtype: types.Type) -> types.Type:
    """How a value of ``dtype`` lies in memory: a bool as a byte (numba reads and writes a
    pointer's bools in their register form, a bit)."""
    return types.uint8 if dtype == types.boolean else dtype


make_attribute_wrapper(View, "data", "data")
make_attribute_wrapper(View, "shape", "shape")


def viewed(kind: types.Type) -> types.Type:
    """The type :func:`views` makes of ``kind``: a C-contiguous array of at most
    :data:`MAX_DIMENSIONS` becomes a :class:`View`, a tuple is made of its members' types,
    anything else stays as it is."""
    if isinstance(kind, types.Array) and kind.layout == "C" and kind.ndim <= MAX_DIMENSIONS:
        return View(kind.dtype, kind.ndim)
    if isinstance(kind, types.BaseTuple):
        return types.BaseTuple.from_types(
            [viewed(member) for member in kind], getattr(kind, "instance_class", tuple)
        )
    return kind


def _view_of(context: Any, builder: Any, kind: types.Type, value: Any) -> Any:
    """The LLVM value of :func:`viewed`'s type made of ``value`` (of type ``kind``)."""
    target = viewed(kind)
    if isinstance(target, View):
        array = context.data_model_manager[kind]
        view = ir.Constant(context.get_value_type(target), ir.Undefined)
        data = builder.extract_value(value, array.get_field_position("data"))
        shape = builder.extract_value(value, array.get_field_position("shape"))
        return builder.insert_value(builder.insert_value(view, data, 0), shape, 1)
    if isinstance(kind, types.BaseTuple) and target != kind:
        result = ir.Constant(context.get_value_type(target), ir.Undefined)
        for position, member in enumerate(kind):
            part = builder.extract_value(value, position)
            result = builder.insert_value(
                result, _view_of(context, builder, member, part), position
            )
        return result
    return value


@intrinsic
def views(typingctx: Any, arrays: types.Type) -> tuple[Any, Any]:
    """``arrays`` (an array, or a tuple of arrays and tuples of them) with every C-contiguous
    array of them a :class:`View` of it."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        result = _view_of(context, builder, arrays, args[0])
        # What is returned is a new reference: the arrays left as they are gain one.
        context.nrt.incref(builder, signature.return_type, result)
        return result

    return viewed(arrays)(arrays), codegen


@intrinsic
def _row(typingctx: Any, view: View, index: types.Integer) -> tuple[Any, Any]:
    """Row ``index`` (counted from 0, not from the end) of ``view``: a view of one dimension
    fewer."""
    row = View(view.dtype, view.ndim - 1)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        value, at = args
        data = builder.extract_value(value, 0)
        shape = [
            builder.extract_value(builder.extract_value(value, 1), i) for i in range(1, view.ndim)
        ]
        size = ir.Constant(context.get_value_type(types.intp), 1)
        for extent in shape:
            size = builder.mul(size, extent)
        at = context.cast(builder, at, signature.args[1], types.intp)
        result = ir.Constant(context.get_value_type(row), ir.Undefined)
        result = builder.insert_value(result, builder.gep(data, [builder.mul(at, size)]), 0)
        for i, extent in enumerate(shape):
            result = builder.insert_value(result, extent, [1, i])
        return result

    return row(view, index), codegen


def _wrap(index: int, extent: int) -> int:
    """``index`` as a position along an axis of ``extent``: a negative one counts from the end
    (compiled only, by :func:`_wrap_typed`)."""
    return index + extent if index < 0 else index


@overload(_wrap)
def _wrap_typed(index, extent):  # as _getitem's
    if isinstance(index, types.Integer) and not index.signed:  # never negative: as numba's own
        return lambda index, extent: np.intp(index)

    def wrap_signed(index, extent):
        position = np.intp(index)
        if position < 0:
            position += extent
        return position

    return wrap_signed


@functools.cache
def _position(ndim: int) -> Any:
    """An element's position in a C-contiguous array of ``ndim`` dimensions, from its shape and
    its index (an integer for one dimension, else a tuple of ``ndim`` integers), compiled."""
    return njit(inline="always")(_position_code(ndim))


def _position_code(ndim: int) -> Any:
    if ndim == 1:
        return lambda shape, index: _wrap(index, shape[0])
    if ndim == 2:
        return lambda shape, index: _wrap(index[0], shape[0]) * shape[1] + _wrap(index[1], shape[1])
    return lambda shape, index: (
        (_wrap(index[0], shape[0]) * shape[1] + _wrap(index[1], shape[1])) * shape[2]
        + _wrap(index[2], shape[2])
    )


def _position_of(view: View, index: types.Type) -> Any:
    """:func:`_position` for ``view`` read or written at ``index``, or ``None`` for an index
    other than an integer (one dimension) or a tuple of ``view.ndim`` integers."""
    if isinstance(index, types.Integer) and view.ndim == 1:
        return _position(1)
    if _integers(index) and len(index) == view.ndim:
        return _position(view.ndim)
    return None


def _integers(index: types.Type) -> bool:
    """``index`` is a tuple of integers."""
    return isinstance(index, types.BaseTuple) and all(isinstance(i, types.Integer) for i in index)


@overload(operator.getitem)
def _getitem(view, index):  # numba compares its parameters with the implementation's
    if not isinstance(view, View):
        return None
    if isinstance(index, types.Integer) and view.ndim > 1:
        return lambda view, index: _row(view, _wrap(index, view.shape[0]))
    if _integers(index) and len(index) == 2 and view.ndim == 3:  # a row of a row
        return lambda view, index: _row(
            _row(view, _wrap(index[0], view.shape[0])), _wrap(index[1], view.shape[1])
        )
    position = _position_of(view, index)
    if position is None:
        raise TypingError(f"a kernel's view is read at integer indices, not at {index}")
    if view.dtype == types.boolean:
        return lambda view, index: view.data[position(view.shape, index)] != 0
    return lambda view, index: view.data[position(view.shape, index)]


@overload(operator.setitem)
def _setitem(view, index, value):  # as _getitem's
    if not isinstance(view, View):
        return None
    position = _position_of(view, index)
    if position is None:
        raise TypingError(f"a kernel's view is written at integer indices, not at {index}")
    if view.dtype == types.boolean:

        def write_bool(view, index, value):
            view.data[position(view.shape, index)] = 1 if value else 0

        return write_bool

    def write(view, index, value):
        view.data[position(view.shape, index)] = value

    return write


@overload(len)
def _len(view):  # as _getitem's
    if isinstance(view, View):
        return lambda view: view.shape[0]
    return None
