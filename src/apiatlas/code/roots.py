"""The CLI's root types and their public members (ECMA-335 Partition IV; the same for every SDK): every
class ends at ``System.Object``, structs at ``System.ValueType``, enums at ``System.Enum``, delegates at
``System.MulticastDelegate``. ``check_code`` knows these members without the framework's assemblies."""

from __future__ import annotations

_OBJECT = frozenset({"Equals", "GetHashCode", "GetType", "ToString", "ReferenceEquals", "MemberwiseClone"})

ROOT_MEMBERS: dict[str, frozenset[str]] = {
    "System.Object": _OBJECT,
    "System.ValueType": _OBJECT,
    "System.Enum": _OBJECT
    | {
        "CompareTo",
        "HasFlag",
        "GetTypeCode",
        "Parse",
        "TryParse",
        "GetNames",
        "GetValues",
        "GetName",
        "IsDefined",
        "Format",
        "ToObject",
    },
    "System.Delegate": _OBJECT
    | {
        "Invoke",
        "DynamicInvoke",
        "Method",
        "Target",
        "Clone",
        "GetInvocationList",
        "Combine",
        "Remove",
        "CreateDelegate",
    },
    "System.MulticastDelegate": _OBJECT
    | {
        "Invoke",
        "BeginInvoke",
        "EndInvoke",
        "DynamicInvoke",
        "Method",
        "Target",
        "Clone",
        "GetInvocationList",
    },
}
