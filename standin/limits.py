"""Discord's size and shape limits, checked on everything the bot sends.

Every check returns a list of FieldError (empty when fine) so one request can report all
of its problems at once, the way Discord's "Invalid Form Body" errors do.
"""

from __future__ import annotations

from typing import Any

from .errors import FieldError
from .models import MessageFlag

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
V2_COMPONENTS_MAX = 40
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
SELECT_OPTION_TEXT_MAX = 100
CHOICES_MAX = 25
CHOICE_NAME_MAX = 100
CHOICE_VALUE_MAX = 100
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024
ATTACHMENTS_MAX = 10
COMMANDS_MAX = 100
COMMAND_OPTIONS_MAX = 25

BUTTON = 2
SELECT_TYPES = (3, 5, 6, 7, 8)
TEXT_INPUT = 4
ACTION_ROW = 1
LABEL = 18


def _too_long(path: str, limit: int) -> FieldError:
    return FieldError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def check_message(payload: dict[str, Any]) -> list[FieldError]:
    """Content, embeds and components of a message create/edit body."""
    errors: list[FieldError] = []
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.append(FieldError("content", "BASE_TYPE_STRING", "Must be a string."))
        elif len(content) > CONTENT_MAX:
            errors.append(_too_long("content", CONTENT_MAX))
    embeds = payload.get("embeds")
    if embeds:
        errors += check_embeds(embeds)
    flags = int(payload.get("flags") or 0)
    components = payload.get("components")
    if components:
        errors += check_components(components, v2=bool(flags & MessageFlag.IS_COMPONENTS_V2))
    if flags & MessageFlag.IS_COMPONENTS_V2 and (content or embeds):
        errors.append(
            FieldError(
                "content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        )
    attachments = payload.get("attachments") or []
    if len(attachments) > ATTACHMENTS_MAX:
        errors.append(_too_long("attachments", ATTACHMENTS_MAX))
    return errors


def is_empty_message(payload: dict[str, Any], has_files: bool) -> bool:
    return not (
        payload.get("content")
        or payload.get("embeds")
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or has_files
    )


def check_embeds(embeds: list[dict[str, Any]]) -> list[FieldError]:
    errors: list[FieldError] = []
    if len(embeds) > EMBEDS_MAX:
        errors.append(_too_long("embeds", EMBEDS_MAX))
    total = 0
    for i, embed in enumerate(embeds):
        base = f"embeds.{i}"
        for key, limit in (("title", EMBED_TITLE_MAX), ("description", EMBED_DESCRIPTION_MAX)):
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                errors.append(_too_long(f"{base}.{key}", limit))
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS_MAX:
            errors.append(_too_long(f"{base}.fields", EMBED_FIELDS_MAX))
        for j, fld in enumerate(fields):
            name, value = fld.get("name") or "", fld.get("value") or ""
            total += len(name) + len(value)
            if len(name) > EMBED_FIELD_NAME_MAX:
                errors.append(_too_long(f"{base}.fields.{j}.name", EMBED_FIELD_NAME_MAX))
            if len(value) > EMBED_FIELD_VALUE_MAX:
                errors.append(_too_long(f"{base}.fields.{j}.value", EMBED_FIELD_VALUE_MAX))
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > EMBED_FOOTER_MAX:
            errors.append(_too_long(f"{base}.footer.text", EMBED_FOOTER_MAX))
        if len(author) > EMBED_AUTHOR_MAX:
            errors.append(_too_long(f"{base}.author.name", EMBED_AUTHOR_MAX))
    if total > EMBED_TOTAL_MAX:
        errors.append(
            FieldError("embeds", "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}")
        )
    return errors


def check_components(
    components: list[dict[str, Any]], *, v2: bool = False, in_modal: bool = False, base: str = "components"
) -> list[FieldError]:
    errors: list[FieldError] = []
    if in_modal:
        if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
            errors.append(_too_long(base, MODAL_COMPONENTS_MAX))
    elif v2:
        if _count(components) > V2_COMPONENTS_MAX:
            errors.append(_too_long(base, V2_COMPONENTS_MAX))
    elif len(components) > ACTION_ROWS_MAX:
        errors.append(_too_long(base, ACTION_ROWS_MAX))
    seen: set[str] = set()
    for i, component in enumerate(components):
        if not v2 and not in_modal and component.get("type") != ACTION_ROW:
            errors.append(FieldError(f"{base}.{i}.type", "UNION_TYPE_CHOICES", "Top level must be action rows."))
        errors += _check_component(component, f"{base}.{i}", seen, in_modal=in_modal)
    return errors


def _count(components: list[dict[str, Any]]) -> int:
    total = 0
    for c in components:
        total += 1 + _count(c.get("components") or [])
        for key in ("component", "accessory"):
            if isinstance(c.get(key), dict):
                total += _count([c[key]])
    return total


def _check_component(component: dict[str, Any], path: str, seen: set[str], *, in_modal: bool) -> list[FieldError]:
    errors: list[FieldError] = []
    ctype = component.get("type")
    custom_id = component.get("custom_id")
    if custom_id is not None:
        if len(str(custom_id)) > CUSTOM_ID_MAX:
            errors.append(_too_long(f"{path}.custom_id", CUSTOM_ID_MAX))
        if custom_id in seen:
            errors.append(
                FieldError(
                    f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
                )
            )
        seen.add(custom_id)
    if ctype == ACTION_ROW:
        children = component.get("components") or []
        selects = [c for c in children if c.get("type") in SELECT_TYPES or c.get("type") == TEXT_INPUT]
        if selects and len(children) > 1:
            errors.append(
                FieldError(
                    f"{path}.components",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            )
        elif len(children) > ROW_BUTTONS_MAX:
            errors.append(_too_long(f"{path}.components", ROW_BUTTONS_MAX))
        elif not children:
            errors.append(FieldError(f"{path}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."))
    if ctype == BUTTON:
        if len(component.get("label") or "") > BUTTON_LABEL_MAX:
            errors.append(_too_long(f"{path}.label", BUTTON_LABEL_MAX))
        style = component.get("style")
        if style == 5 and not component.get("url"):
            errors.append(FieldError(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required"))
        if style not in (5, 6) and not custom_id:
            errors.append(FieldError(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
    if ctype in SELECT_TYPES:
        if not custom_id:
            errors.append(FieldError(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
        if len(component.get("placeholder") or "") > SELECT_PLACEHOLDER_MAX:
            errors.append(_too_long(f"{path}.placeholder", SELECT_PLACEHOLDER_MAX))
        for key in ("min_values", "max_values"):
            if int(component.get(key) or 1) > SELECT_OPTIONS_MAX:
                errors.append(
                    FieldError(f"{path}.{key}", "NUMBER_TYPE_MAX", f"int value should be <= {SELECT_OPTIONS_MAX}.")
                )
        if ctype == 3:
            options = component.get("options") or []
            if len(options) > SELECT_OPTIONS_MAX:
                errors.append(_too_long(f"{path}.options", SELECT_OPTIONS_MAX))
            if not options:
                errors.append(FieldError(f"{path}.options", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length."))
            for j, option in enumerate(options):
                for key in ("label", "value", "description"):
                    if len(option.get(key) or "") > SELECT_OPTION_TEXT_MAX:
                        errors.append(_too_long(f"{path}.options.{j}.{key}", SELECT_OPTION_TEXT_MAX))
    if ctype == TEXT_INPUT:
        if not in_modal:
            errors.append(FieldError(f"{path}.type", "COMPONENT_TYPE_INVALID", "Text inputs are only valid in modals"))
        if len(component.get("label") or "") > TEXT_INPUT_LABEL_MAX:
            errors.append(_too_long(f"{path}.label", TEXT_INPUT_LABEL_MAX))
        if len(component.get("value") or "") > TEXT_INPUT_VALUE_MAX:
            errors.append(_too_long(f"{path}.value", TEXT_INPUT_VALUE_MAX))
    for i, child in enumerate(component.get("components") or []):
        errors += _check_component(child, f"{path}.components.{i}", seen, in_modal=in_modal)
    for key in ("component", "accessory"):
        if isinstance(component.get(key), dict):
            errors += _check_component(component[key], f"{path}.{key}", seen, in_modal=in_modal)
    return errors


def check_choices(choices: list[dict[str, Any]]) -> list[FieldError]:
    errors: list[FieldError] = []
    if len(choices) > CHOICES_MAX:
        errors.append(_too_long("data.choices", CHOICES_MAX))
    for i, choice in enumerate(choices):
        name = str(choice.get("name") or "")
        if not 1 <= len(name) <= CHOICE_NAME_MAX:
            errors.append(_too_long(f"data.choices.{i}.name", CHOICE_NAME_MAX))
        value = choice.get("value")
        if isinstance(value, str) and len(value) > CHOICE_VALUE_MAX:
            errors.append(_too_long(f"data.choices.{i}.value", CHOICE_VALUE_MAX))
    return errors


def check_modal(data: dict[str, Any]) -> list[FieldError]:
    errors: list[FieldError] = []
    if not 1 <= len(data.get("title") or "") <= MODAL_TITLE_MAX:
        errors.append(_too_long("data.title", MODAL_TITLE_MAX))
    custom_id = str(data.get("custom_id") or "")
    if not 1 <= len(custom_id) <= CUSTOM_ID_MAX:
        errors.append(_too_long("data.custom_id", CUSTOM_ID_MAX))
    errors += check_components(data.get("components") or [], in_modal=True, base="data.components")
    return errors


def check_commands(commands: list[dict[str, Any]]) -> list[FieldError]:
    """The parts of command registration a bot can get wrong without discord.py noticing."""
    errors: list[FieldError] = []
    if len([c for c in commands if c.get("type", 1) == 1]) > COMMANDS_MAX:
        errors.append(_too_long("", COMMANDS_MAX))
    names: set[tuple[str, int]] = set()
    for i, command in enumerate(commands):
        key = (str(command.get("name")), int(command.get("type", 1)))
        if key in names:
            errors.append(
                FieldError(
                    f"{i}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique"
                )
            )
        names.add(key)
        errors += _check_command_node(command, str(i), chat_input=key[1] == 1)
    return errors


def _check_command_node(node: dict[str, Any], path: str, *, chat_input: bool) -> list[FieldError]:
    errors: list[FieldError] = []
    # Names (Unicode-aware pattern, lower case, localized too): documented.check_command_definitions.
    if chat_input and not 1 <= len(node.get("description") or "") <= 100:
        errors.append(_too_long(f"{path}.description", 100))
    options = node.get("options") or []
    if len(options) > COMMAND_OPTIONS_MAX:
        errors.append(_too_long(f"{path}.options", COMMAND_OPTIONS_MAX))
    seen_optional = False
    for j, option in enumerate(options):
        if option.get("type") in (1, 2):
            errors += _check_command_node(option, f"{path}.options.{j}", chat_input=True)
            continue
        if option.get("required"):
            if seen_optional:
                errors.append(
                    FieldError(
                        f"{path}.options.{j}.required",
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        if len(option.get("choices") or []) > CHOICES_MAX:
            errors.append(_too_long(f"{path}.options.{j}.choices", CHOICES_MAX))
        errors += _check_command_node(option, f"{path}.options.{j}", chat_input=chat_input)
    return errors
