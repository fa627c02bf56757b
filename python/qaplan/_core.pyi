"""Type stubs of the C++ extension qaplan._core (re-exported by the qaplan package)."""

import datetime
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
TOKENIZER_VERSION: str

PathLike = Union[str, bytes, "os.PathLike[str]"]
IntentModelResult = Union["IntentCandidate", Tuple[str, float], Tuple[str, float, str]]
IntentModelFn = Callable[["IntentModelInput"], IntentModelResult]
RewriterFn = Callable[["RewriteRequest"], Union[str, Sequence[str]]]
FloatArray = Union[npt.NDArray[np.float32], npt.ArrayLike]

# --- planning ---------------------------------------------------------------------------------

class RouteDecision:
    @property
    def route(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def detail(self) -> str: ...
    @property
    def reply(self) -> str: ...
    @property
    def decided_by(self) -> str: ...
    @property
    def score(self) -> float: ...

class IntentCandidate:
    def __init__(self, intent: str, score: float, rule_id: str = "") -> None: ...
    @property
    def intent(self) -> str: ...
    @property
    def score(self) -> float: ...
    @property
    def rule_id(self) -> str: ...
    @property
    def matched_rules(self) -> List[str]: ...
    @property
    def requires_rewrite(self) -> bool: ...
    @property
    def suggested_source(self) -> Optional[str]: ...

class IntentResult:
    @property
    def intent(self) -> str: ...
    @property
    def rule_score(self) -> float: ...
    @property
    def confidence(self) -> float: ...
    @property
    def requires_rewrite(self) -> bool: ...
    @property
    def suggested_source(self) -> Optional[str]: ...
    @property
    def decision_policy(self) -> str: ...
    @property
    def matched_rules(self) -> List[str]: ...
    @property
    def rule_candidate(self) -> IntentCandidate: ...
    @property
    def model_candidate(self) -> Optional[IntentCandidate]: ...
    @property
    def model_error(self) -> Optional[str]: ...

class RetrievalPlan:
    @property
    def run_faq(self) -> bool: ...
    @property
    def run_doc(self) -> bool: ...
    @property
    def faq_top_k(self) -> int: ...
    @property
    def doc_top_k(self) -> int: ...
    @property
    def rerank(self) -> bool: ...
    @property
    def faq_direct_threshold(self) -> float: ...
    @property
    def final_context_top_n(self) -> int: ...
    @property
    def min_context_score(self) -> float: ...
    @property
    def max_context_chars(self) -> int: ...
    @property
    def max_context_doc_chars(self) -> int: ...
    @property
    def use_query_variants(self) -> bool: ...
    @property
    def prefer_table(self) -> bool: ...
    @property
    def faq_direct_exact_only(self) -> bool: ...
    @property
    def question_category(self) -> str: ...
    @property
    def intent_rule_score(self) -> float: ...
    @property
    def intent_decision_score(self) -> float: ...
    @property
    def reason(self) -> str: ...
    def knobs(self) -> Dict[str, Union[bool, int, float]]: ...

class PlanChange:
    @property
    def field(self) -> str: ...
    @property
    def op(self) -> str: ...
    @property
    def value(self) -> Union[bool, int, float]: ...
    @property
    def before(self) -> Union[bool, int, float]: ...
    @property
    def after(self) -> Union[bool, int, float]: ...

class FiredPatch:
    @property
    def id(self) -> str: ...
    @property
    def tag(self) -> str: ...
    @property
    def changes(self) -> List[PlanChange]: ...

class PlanTrace:
    @property
    def fired(self) -> List[FiredPatch]: ...

class Preparation:
    @property
    def query(self) -> str: ...
    @property
    def normalized_query(self) -> str: ...
    @property
    def query_units(self) -> int: ...
    @property
    def history(self) -> List[str]: ...
    @property
    def route(self) -> RouteDecision: ...
    @property
    def is_direct_answer(self) -> bool: ...
    @property
    def intent(self) -> Optional[IntentResult]: ...
    @property
    def effective_source(self) -> Optional[str]: ...
    @property
    def effective_sources(self) -> List[str]: ...
    @property
    def fallback_sources(self) -> Optional[List[str]]: ...
    @property
    def question_category(self) -> str: ...
    @property
    def plan(self) -> Optional[RetrievalPlan]: ...
    @property
    def plan_trace(self) -> Optional[PlanTrace]: ...
    @property
    def timings_us(self) -> Dict[str, float]: ...
    def to_json(
        self, analysis: Optional[QueryAnalysis] = None, *, pretty: bool = False, timings: bool = False
    ) -> str: ...
    def to_dict(self, analysis: Optional[QueryAnalysis] = None, *, timings: bool = False) -> Dict[str, Any]: ...

class Rewrite:
    query: str
    rewritten: bool
    by: str
    topic_anchor: str
    history_summary: str
    reasons: List[str]
    hook_error: str

class QueryVariant:
    text: str
    kind: str
    hypothetical: bool
    origin: str

class RejectedVariant:
    text: str
    kind: str
    reason: str

class HookCall:
    hook: str
    kind: str
    ok: bool
    error: str
    elapsed_us: int
    kept: int
    rejected: int

class TimeRange:
    from_: str
    to: str
    expression: str
    anchor: str
    timezone: str
    date: str  # "effective" | "published" | "signed"
    field: str  # the metadata field of a published / signed range; "" for effective

class Filters:
    time: Optional[TimeRange]  # set when the question names exactly one period
    time_ranges: List[TimeRange]  # every period: a comparison (去年和今年) has two
    department: Optional[str]
    tags: List[str]
    path_prefix: Optional[str]
    is_signed: Optional[bool]
    user: Optional[str]
    uncertain: bool
    reasons: List[str]

class Routing:
    index: str
    mode: str
    model_tier: str
    ids: List[str]
    parts: int
    reasons: List[str]

class ExecutionPath:
    path: str
    confidence: float
    explicit_request: bool
    reasons: List[str]

class FallbackStep:
    step: int
    action: str
    params: Dict[str, str]

class PromptProfile:
    id: str
    citation_style: str
    caution: str
    answer_format: str
    max_context_chars: int
    max_context_doc_chars: int
    final_context_top_n: int
    reasons: List[str]

class CostLedger:
    model_calls: int
    retrieval_calls: int
    variant_paths: int
    hook_failures: int
    variants_rejected: int

class QueryAnalysis:
    rewrite: Rewrite
    variants: List[QueryVariant]
    variant_reasons: List[str]
    rejected: List[RejectedVariant]
    hook_calls: List[HookCall]
    filters: Filters
    routing: Routing
    execution: ExecutionPath
    fallback: List[FallbackStep]
    prompt: PromptProfile
    cost: CostLedger
    def to_json(self, *, pretty: bool = False) -> str: ...
    def to_dict(self) -> Dict[str, Any]: ...

class IntentModelInput:
    question: str
    normalized: str
    history: List[str]
    budget_us: int

class RewriteRequest:
    kind: str
    question: str
    history_summary: str
    prompt: str
    budget_ms: int

class SavedIndex:
    """An index directory from `qaplan index build` (BM25 and its document store), for Planner.ask."""

    def __init__(self, path: PathLike, *, load: str = "mmap") -> None: ...
    def unchanged(self) -> None: ...
    def __len__(self) -> int: ...
    @property
    def path(self) -> str: ...

class Planner:
    """Prepares questions for retrieval. Immutable and thread-safe; prepare() releases the GIL."""

    def __init__(
        self,
        config_path: PathLike,
        *,
        intent_model: Optional[IntentModelFn] = None,
        rewriters: Optional[Mapping[str, RewriterFn]] = None,
        rewrite_hook: Optional[str] = None,
        rewrite_kinds: Optional[Sequence[str]] = None,
        domain_lexicon: Optional[PathLike] = None,
    ) -> None: ...
    @staticmethod
    def from_default(
        *,
        intent_model: Optional[IntentModelFn] = None,
        rewriters: Optional[Mapping[str, RewriterFn]] = None,
        rewrite_hook: Optional[str] = None,
        rewrite_kinds: Optional[Sequence[str]] = None,
        domain_lexicon: Optional[PathLike] = None,
    ) -> Planner: ...
    def prepare(
        self,
        question: Union[str, bytes],
        history: Optional[Sequence[Union[str, bytes]]] = None,
        scenario: Optional[str] = None,
        source: Optional[str] = None,
    ) -> Preparation: ...
    def analyze(
        self,
        preparation: Preparation,
        *,
        now: Union[str, datetime.datetime, None] = None,
        timezone: Optional[str] = None,
        session_department: Optional[str] = None,
        session_user: Optional[str] = None,
    ) -> QueryAnalysis: ...
    def rewrite(
        self,
        question: Union[str, bytes],
        history: Optional[Sequence[Union[str, bytes]]] = None,
        scenario: Optional[str] = None,
    ) -> Dict[str, Any]: ...
    def ask(
        self,
        question: Union[str, bytes],
        index: SavedIndex,
        *,
        history: Optional[Sequence[Union[str, bytes]]] = None,
        scenario: Optional[str] = None,
        source: Optional[str] = None,
        now: Optional[Union[str, Any]] = None,
        timezone: Optional[str] = None,
        query_vectors: Optional[Sequence[Sequence[float]]] = None,
        explain: bool = False,
    ) -> Dict[str, Any]: ...
    def rewrite_json(
        self,
        question: Union[str, bytes],
        history: Optional[Sequence[Union[str, bytes]]] = None,
        scenario: Optional[str] = None,
        *,
        pretty: bool = False,
    ) -> str: ...
    @property
    def config_path(self) -> str: ...
    @property
    def model_description(self) -> str: ...
    @property
    def domain_description(self) -> str: ...
    def _prepare_loop_ns(
        self, requests: Sequence[Tuple[str, Sequence[str]]], reps: int
    ) -> List[float]: ...

# --- ranking ----------------------------------------------------------------------------------

def tokenize(text: Union[str, bytes]) -> List[str]: ...

class Hit:
    def __init__(self, doc: int, score: float, id: Optional[str] = None) -> None: ...
    @property
    def doc(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def id(self) -> Optional[str]: ...
    def __iter__(self) -> Any: ...

class FusedHit:
    @property
    def doc(self) -> int: ...
    @property
    def score(self) -> float: ...
    @property
    def ranks(self) -> List[Optional[int]]: ...
    @property
    def list_scores(self) -> List[Optional[float]]: ...
    @property
    def id(self) -> Optional[str]: ...

RankedItem = Union[Hit, Tuple[int, float], int]

def rrf(
    lists: Sequence[Sequence[RankedItem]], *, k: float = 60.0, weights: Optional[Sequence[float]] = None
) -> List[FusedHit]: ...

Query = Union[str, Sequence[str]]

class Bm25Index:
    def __init__(
        self,
        texts: Sequence[str],
        ids: Optional[Sequence[str]] = None,
        *,
        k1: float = 1.2,
        b: float = 0.75,
        norms: str = "exact",
    ) -> None: ...
    @staticmethod
    def from_tokens(
        docs: Sequence[Sequence[str]],
        ids: Optional[Sequence[str]] = None,
        *,
        k1: float = 1.2,
        b: float = 0.75,
        norms: str = "exact",
    ) -> Bm25Index: ...
    @staticmethod
    def load(path: PathLike, *, verify_checksum: bool = True, expected_tokenizer: str = "",
             load: str = "mmap") -> Bm25Index: ...
    def unchanged(self) -> None: ...
    def save(self, path: PathLike) -> None: ...
    def search(self, query: Query, k: int = 10) -> List[Hit]: ...
    def search_many(self, queries: Sequence[Query], k: int = 10) -> List[List[Hit]]: ...
    def __len__(self) -> int: ...
    @property
    def avgdl(self) -> float: ...
    @property
    def num_terms(self) -> int: ...
    def doc_freq(self, term: str) -> int: ...
    def doc_id(self, doc: int) -> Optional[str]: ...
    @property
    def k1(self) -> float: ...
    @property
    def b(self) -> float: ...
    @property
    def norms(self) -> str: ...
    @property
    def tokenizer(self) -> str: ...
    @property
    def checksum(self) -> int: ...

class VectorIndex:
    def __init__(
        self,
        vectors: FloatArray,
        ids: Optional[Sequence[str]] = None,
        *,
        m: int = 16,
        ef_construction: int = 200,
        ef_search: int = 64,
        seed: int = 100,
    ) -> None: ...
    def search(self, query: FloatArray, k: int = 10) -> List[Hit]: ...
    def search_exact(self, query: FloatArray, k: int = 10) -> List[Hit]: ...
    def search_many(self, queries: FloatArray, k: int = 10, *, exact: bool = False) -> List[List[Hit]]: ...
    def save(self, path: PathLike) -> None: ...
    @staticmethod
    def load(path: PathLike, ids: Optional[Sequence[str]] = None) -> VectorIndex: ...
    def __len__(self) -> int: ...
    @property
    def dimensions(self) -> int: ...
    @property
    def ef_search(self) -> int: ...

class LocalTfidfEmbedder:
    @staticmethod
    def fit(texts: Sequence[str]) -> LocalTfidfEmbedder: ...
    def embed(self, text: str) -> npt.NDArray[np.float32]: ...
    @property
    def dimensions(self) -> int: ...
    @property
    def model(self) -> str: ...
    @property
    def vocabulary(self) -> List[str]: ...

def _bench_run(
    dataset: str,
    fingerprints: str,
    backend: str,
    query_vectors: str,
    index_vectors: str,
    config: str,
    reported_hits: int,
) -> Tuple[str, str]: ...

def _locate_config(package_datadir: Optional[str] = None) -> Tuple[str, str]: ...
