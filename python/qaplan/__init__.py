"""qaplan — query preparation and in-process ranking for retrieval-augmented QA.

The C++ library (``qaplan::qaplan``) does all the work; this package is a thin binding::

    import qaplan
    planner = qaplan.Planner.from_default()
    prep = planner.prepare("报销费用超过5000需要谁审批")
    prep.plan.doc_top_k, prep.plan.reason   # (24, 'faq_first_short_query_guard_pricing_guard')
    prep.to_dict()                           # == `qaplan plan "<q>" --plan-only` as JSON

Errors raise :class:`qaplan.Error` subclasses carrying ``code``, ``file``, ``line``,
``column`` and ``field``. ``Planner``, ``Bm25Index`` and ``VectorIndex`` are immutable and
thread-safe; ``prepare()``, ``analyze()`` and every ``search()`` release the GIL.
"""

from ._errors import (
    Error,
    FingerprintMismatch,
    InternalError,
    InvalidConfig,
    InvalidInput,
    IoError,
)
from ._core import (  # noqa: E402  (the errors must be importable before the core)
    TOKENIZER_VERSION,
    Bm25Index,
    CostLedger,
    ExecutionPath,
    FallbackStep,
    Filters,
    FiredPatch,
    FusedHit,
    Hit,
    HookCall,
    IntentCandidate,
    IntentModelInput,
    IntentResult,
    LocalTfidfEmbedder,
    PlanChange,
    Planner,
    PlanTrace,
    Preparation,
    PromptProfile,
    QueryAnalysis,
    QueryVariant,
    RejectedVariant,
    RetrievalPlan,
    Rewrite,
    RewriteRequest,
    RouteDecision,
    Routing,
    SavedIndex,
    TimeRange,
    VectorIndex,
    __version__,
    rrf,
    tokenize,
)
from . import bench  # noqa: E402
from ._paths import default_config, locate_config  # noqa: E402

__all__ = [
    "Error", "InvalidInput", "InvalidConfig", "IoError", "FingerprintMismatch", "InternalError",
    "Planner", "Preparation", "RouteDecision", "IntentResult", "IntentCandidate", "RetrievalPlan",
    "PlanTrace", "FiredPatch", "PlanChange", "QueryAnalysis", "Rewrite", "QueryVariant",
    "RejectedVariant", "HookCall", "TimeRange", "Filters", "Routing", "ExecutionPath",
    "FallbackStep", "PromptProfile", "CostLedger", "IntentModelInput", "RewriteRequest",
    "Hit", "FusedHit", "Bm25Index", "VectorIndex", "SavedIndex", "LocalTfidfEmbedder", "rrf", "tokenize",
    "TOKENIZER_VERSION", "bench", "default_config", "locate_config", "__version__",
]
