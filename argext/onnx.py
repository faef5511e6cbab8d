"""argext as operators of the ONNX reference evaluator.

    from onnx.reference import ReferenceEvaluator
    import argext.onnx
    sess = ReferenceEvaluator(model, new_ops=argext.onnx.reference_ops())

replaces the evaluator's ArgMax, ArgMin, Hardmax and TopK with argext's
kernels. Each node runs the operator version in force at the model's
default-domain opset import (ArgMax-1/11/12/13, ArgMin likewise,
Hardmax-1/11/13, TopK-1/10/11/24: k the attribute of TopK-1, the input K
from TopK-10 on): a
Hardmax-1 or -11 node one-hots the rows of the input coerced to 2-D, as the
spec says (the stock evaluator applies the version-13 rule at every opset),
and an attribute the version lacks raises argext.SpecError. Attributes a node
leaves out take that version's default, not the newest version's.

A model whose opset is newer than the newest argext knows (28) still runs: the
operator version in force is argext's newest (ArgMax-13, ArgMin-13,
Hardmax-13), with a FutureWarning, as long as onnx.defs says the operator did
not change up to the model's opset; if it did (an onnx that knows a newer
version of the operator), the node raises argext.SpecError naming both
versions. An onnx whose defs end before the model's opset cannot tell: the
warning says so.

Needs onnx (pip install onnx); `import argext` does not import it.
"""

import warnings

import onnx.defs
from onnx.reference.op_run import OpRun

import argext
from argext._spec import NEWEST_OPSET

__all__ = ["reference_ops"]


class _ArgextOp(OpRun):
    op_domain = ""

    def _opset(self):
        """The opset argext runs the node at: the model's, or for a newer opset
        than argext knows, its newest, where onnx.defs has the same version in force."""
        opsets = self.run_params["opsets"]
        opset = opsets[""] if "" in opsets else opsets["ai.onnx"]
        if opset <= NEWEST_OPSET:
            return opset
        op_type = self.onnx_node.op_type
        ours = argext.schema(op_type).since_version
        theirs = onnx.defs.get_schema(op_type, opset, "").since_version
        if theirs != ours:
            raise argext.SpecError(
                f"{op_type}: the model's opset {opset} has {op_type}-{theirs} in force (onnx "
                f"{onnx.__version__}), which argext does not implement (it knows opsets "
                f"1..{NEWEST_OPSET}, up to {op_type}-{ours}); upgrade argext, or run the model "
                f"with onnx's own evaluator")
        known = onnx.defs.onnx_opset_version()
        checked = (f"onnx {onnx.__version__} has it in force there too" if known >= opset else
                   f"onnx {onnx.__version__} knows opsets up to {known} only: a change after "
                   f"opset {known} would go unseen")
        warnings.warn(f"{op_type}: the model's opset {opset} is newer than the newest argext "
                      f"knows ({NEWEST_OPSET}); running {op_type}-{ours}, argext's newest "
                      f"({checked})", FutureWarning, stacklevel=2)
        return NEWEST_OPSET

    def _given(self, **attributes):
        """The attributes the node itself sets (the values the evaluator
        resolved, linked attributes included); left-out ones keep argext's
        defaults, which are the version's."""
        named = {a.name for a in self.onnx_node.attribute}
        return {k: v for k, v in attributes.items() if k in named}


class ArgMax(_ArgextOp):
    """ONNX ArgMax computed by argext.argmax at the model's opset."""

    def _run(self, data, axis=None, keepdims=None, select_last_index=None):
        given = self._given(axis=axis, keepdims=keepdims, select_last_index=select_last_index)
        return (argext.argmax(data, **given, opset=self._opset()),)


class ArgMin(_ArgextOp):
    """ONNX ArgMin computed by argext.argmin at the model's opset."""

    def _run(self, data, axis=None, keepdims=None, select_last_index=None):
        given = self._given(axis=axis, keepdims=keepdims, select_last_index=select_last_index)
        return (argext.argmin(data, **given, opset=self._opset()),)


class Hardmax(_ArgextOp):
    """ONNX Hardmax computed by argext.hardmax at the model's opset."""

    def _run(self, input, axis=None):
        return (argext.hardmax(input, **self._given(axis=axis), opset=self._opset()),)


class TopK(_ArgextOp):
    """ONNX TopK computed by argext.topk at the model's opset: NaN ranks first
    for largest and smallest alike, and sorted=0 gives index order (the
    stock evaluator ranks NaN last for largest=0 and always sorts)."""

    def _run(self, X, K=None, axis=None, largest=None, sorted=None, k=None):
        given = self._given(axis=axis, largest=largest, sorted=sorted)
        return argext.topk(X, k if K is None else K, **given, opset=self._opset())


def reference_ops():
    """The operator classes for ReferenceEvaluator(..., new_ops=reference_ops())."""
    return [ArgMax, ArgMin, Hardmax, TopK]
