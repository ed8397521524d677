"""#ttg.partitioned_shared -> LinearLayout (offset, block, partition -> tensor).

The tensor is cut along partitionDim into numPartitions * numGroups equal pieces, each laid out by the inner
layout; piece k lives in partition k % numPartitions (a separate LDS buffer, to spread accesses over memory
partitions), where the pieces of one partition follow each other (Triton's partitionedSharedToLinearLayout).
"""
from __future__ import annotations

from ..attributes.encodings import PaddedSharedEncoding, PartitionedSharedEncoding
from ..engine import LinearLayout
from ..errors import ShapeError
from . import padded_shared
from .common import check_rank, standard_out_dims


def piece_shape(attr: PartitionedSharedEncoding, shape) -> list[int]:
    """Shape of one piece: the tensor's, with partitionDim divided by numPartitions * numGroups."""
    pieces = attr.num_partitions * attr.num_groups
    dim = attr.partition_dim
    if shape[dim] < pieces:
        raise ShapeError(f"dimension {dim} of the tensor has size {shape[dim]}, less than the "
                         f"{attr.num_partitions} x {attr.num_groups} pieces of the partitioned_shared layout")
    piece = list(shape)
    piece[dim] //= pieces
    return piece


def partitioned_to_ll(attr: PartitionedSharedEncoding, shape, to_ll) -> LinearLayout:
    check_rank(attr.rank, shape, "partitioned_shared")
    piece = piece_shape(attr, shape)
    inner = attr.partition_layout
    if isinstance(inner, PaddedSharedEncoding):
        padded_shared.check_shape(inner, piece, "partition piece shape")
        base = padded_shared.linear_component(inner)
    else:
        base = to_ll(inner, piece)
    along = standard_out_dims(attr.rank)[attr.partition_dim]
    return (base * LinearLayout.identity1D(attr.num_partitions, "partition", along)
            * LinearLayout.identity1D(attr.num_groups, "offset", along)).transpose_outs(standard_out_dims(attr.rank))
