"""argext as operators of the ONNX reference evaluator.

    from onnx.reference import ReferenceEvaluator
    import argext.onnx
    sess = ReferenceEvaluator(model, new_ops=argext.onnx.reference_ops())

replaces the evaluator's ArgMax, ArgMin and Hardmax with argext's kernels.
Each node runs the operator version in force at the model's default-domain
opset import (ArgMax-1/11/12/13, ArgMin likewise, Hardmax-1/11/13): a
Hardmax-1 or -11 node one-hots the rows of the input coerced to 2-D, as the
spec says (the stock evaluator applies the version-13 rule at every opset),
and an attribute the version lacks raises argext.SpecError. Attributes a node
leaves out take that version's default, not the newest version's.

Needs onnx (pip install onnx); `import argext` does not import it.
"""

from onnx.reference.op_run import OpRun

import argext

__all__ = ["reference_ops"]


class _ArgextOp(OpRun):
    op_domain = ""

    def _opset(self):
        opsets = self.run_params["opsets"]
        return opsets[""] if "" in opsets else opsets["ai.onnx"]

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


def reference_ops():
    """The operator classes for ReferenceEvaluator(..., new_ops=reference_ops())."""
    return [ArgMax, ArgMin, Hardmax]
