"""What the dotnet source reads from every input: one ``Member`` per .NET documentation ID.

Assemblies, documentation files (compiler XML, ECMA/monodoc) and C# sources each yield members with
what they know; ``merge_into`` joins two records of the same documentation ID (the first input's
metadata wins, documentation and source spans are added from the others).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

TYPE_KINDS = ("class", "struct", "interface", "enum", "delegate")
MEMBER_KINDS = ("constructor", "method", "property", "event", "field")
PREFIX_OF_KIND = {
    **{kind: "T" for kind in TYPE_KINDS},
    "constructor": "M",
    "method": "M",
    "property": "P",
    "event": "E",
    "field": "F",
}


class Parameter(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    type: str  # documentation-ID spelling: System.Int32, Gtk.Widget, System.String[], `0
    display: str = ""  # C# spelling: int, Gtk.Widget
    modifier: str = ""  # ref | out | params | ""
    optional: bool = False
    doc: str = ""


class MemberDocs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    summary: str = ""
    remarks: str = ""
    returns: str = ""
    value: str = ""
    params: dict[str, str] = Field(default_factory=dict)
    exceptions: dict[str, str] = Field(default_factory=dict)  # exception type -> when
    example: str = ""

    def empty(self) -> bool:
        return not (self.summary or self.remarks or self.returns or self.params or self.example)


class SourceSpan(BaseModel):
    model_config = ConfigDict(extra="forbid")

    file: str  # relative to the source root
    start_line: int  # 1-based, inclusive
    end_line: int
    text_start: int = 0  # the first line of ``text``: a few lines of context before start_line
    text: str = ""  # the lines (a type: its first lines only), kept in the snapshot for read_source


class BodyFacts(BaseModel):
    """What a member's body does, as ``Type.Member`` names: calls, objects created, exceptions thrown."""

    model_config = ConfigDict(extra="forbid")

    calls: list[str] = Field(default_factory=list)
    creates: list[str] = Field(default_factory=list)
    throws: list[str] = Field(default_factory=list)

    def empty(self) -> bool:
        return not (self.calls or self.creates or self.throws)


class Member(BaseModel):
    """A type or a member of one, keyed by its documentation ID (``M:Gtk.Window.SetDefaultSize(...)``)."""

    model_config = ConfigDict(extra="forbid")

    doc_id: str
    kind: str  # one of TYPE_KINDS or MEMBER_KINDS
    namespace: str = ""
    declaring_type: str = ""  # Gtk.Window for its members; the enclosing type for a nested type
    name: str  # SetDefaultSize, #ctor, Window
    params: list[Parameter] = Field(default_factory=list)
    returns: str = ""  # documentation-ID spelling; "" for void, constructors and types
    returns_display: str = ""
    signature: str = ""  # C#: public void SetDefaultSize (int width, int height);
    visibility: str = "public"  # public | protected | internal | private
    static: bool = False
    abstract: bool = False
    virtual: bool = False
    generic_params: list[str] = Field(default_factory=list)
    base_type: str = ""
    interfaces: list[str] = Field(default_factory=list)
    docs: MemberDocs = Field(default_factory=MemberDocs)
    facts: BodyFacts = Field(default_factory=BodyFacts)
    source: SourceSpan | None = None
    assembly: str = ""
    inputs: list[str] = Field(default_factory=list)  # which input files said something about it

    @property
    def is_type(self) -> bool:
        return self.kind in TYPE_KINDS

    @property
    def owner(self) -> str:
        """The type a card is listed under: the declaring type of a member, the type itself for a type."""
        return self.doc_id[2:] if self.is_type else self.declaring_type


def merge_into(kept: Member, other: Member) -> None:
    """Add what ``other`` (the same documentation ID from another input) knows that ``kept`` lacks."""
    if kept.docs.empty() and not other.docs.empty():
        kept.docs = other.docs
    elif not other.docs.empty():
        for name, text in other.docs.params.items():
            kept.docs.params.setdefault(name, text)
    for p, q in zip(kept.params, other.params, strict=False):
        p.doc = p.doc or q.doc
        p.name = p.name if p.name and not p.name.startswith("arg") else (q.name or p.name)
    if kept.source is None:
        kept.source = other.source
    if kept.facts.empty():
        kept.facts = other.facts
    kept.signature = kept.signature or other.signature
    kept.base_type = kept.base_type or other.base_type
    kept.interfaces = kept.interfaces or other.interfaces
    kept.assembly = kept.assembly or other.assembly
    kept.inputs += [i for i in other.inputs if i not in kept.inputs]
