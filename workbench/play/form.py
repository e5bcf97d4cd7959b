"""The controls for one decision, built from the legal actions (see ``workbench.sessions.actions``).

A form belongs to one decision (the session's step when it was built). Clicking plays the
composed action through ``submit(decision, action)`` only when it is legal; the table ignores
a decision that is no longer current, so a stale or repeated click changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets

from workbench.panels import escape
from workbench.sessions.actions import FieldSpec, GroupSpec, Labeller, analyse, match, value_text

Submit = Callable[[int, Any], None]


class _GroupControls:
    """The widgets of one group of actions: buttons, one number, a dropdown, or a field form."""

    def __init__(self, spec: GroupSpec, labeller: Labeller | None, on_change: Callable) -> None:
        self.spec = spec
        self.labeller = labeller
        self.buttons: dict[Any, widgets.Button] = {}
        self.fields: dict[str, Any] = {}  # name -> widget, or list of toggles / numbers
        self.multiset_values: dict[str, list[Any]] = {}
        group = spec.label if spec.type is not None else None
        children: list[widgets.Widget] = []
        if spec.kind == "buttons":
            for action in spec.actions:
                button = widgets.Button(
                    description=value_text(action, labeller, group),
                    layout=widgets.Layout(width="auto"),
                )
                button.add_class("wb-table-action")
                self.buttons[action] = button
                children.append(button)
        elif spec.kind == "number":
            number = widgets.BoundedIntText(
                value=spec.low,
                min=spec.low,
                max=spec.high,
                description="number",
                layout=widgets.Layout(width="12em"),
            )
            number.add_class("wb-table-number")
            self.fields["value"] = number
            children.append(number)
        elif spec.kind == "choice":
            options = [(value_text(a, labeller, group), a) for a in spec.actions]
            dropdown = widgets.Dropdown(
                options=options, value=spec.actions[0], description="choose"
            )
            self.fields["value"] = dropdown
            children.append(dropdown)
        else:
            children += [self._field(field, group) for field in spec.fields]
        for control in self.fields.values():
            for widget in control if isinstance(control, list) else [control]:
                widget.observe(on_change, names="value")
        self.box = widgets.VBox(children)

    def _field(self, field: FieldSpec, group: str | None) -> widgets.Widget:
        name = field.name.replace("_", " ")
        caption = widgets.HTML(f"<b>{escape(name)}</b>", layout=widgets.Layout(width="9em"))
        if field.kind == "choice":
            options = [(value_text(v, self.labeller, group, field.name), v) for v in field.values]
            controls = [widgets.Dropdown(options=options, value=field.values[0])]
            controls[0].add_class(f"wb-table-field-{field.name}")
        elif field.kind == "number":
            controls = [widgets.BoundedIntText(value=field.low, min=field.low, max=field.high)]
        elif field.kind == "multiset":
            controls = []
            for value in field.values:
                toggle = widgets.ToggleButton(
                    value=False,
                    description=value_text(value, self.labeller, group, field.name),
                    layout=widgets.Layout(width="auto"),
                )
                toggle.add_class("wb-table-toggle")
                controls.append(toggle)
            self.multiset_values[field.name] = list(field.values)
        else:  # a vector: one number per place
            controls = [
                widgets.BoundedIntText(
                    value=low, min=low, max=high, layout=widgets.Layout(width="6em")
                )
                for low, high in field.bounds
            ]
        single = field.kind in ("choice", "number")
        self.fields[field.name] = controls[0] if single else controls
        return widgets.HBox([caption, *controls])

    def values(self) -> dict[str, Any]:
        """The value every field control shows now."""
        found: dict[str, Any] = {}
        for name, control in self.fields.items():
            if name in self.multiset_values:
                values = self.multiset_values[name]
                chosen = [v for v, t in zip(values, control, strict=True) if t.value]
                found[name] = tuple(chosen)
            elif isinstance(control, list):
                found[name] = tuple(number.value for number in control)
            else:
                found[name] = control.value
        return found

    def composed(self) -> Any:
        """The action the controls compose (a button group composes none)."""
        if self.spec.kind == "buttons":
            return None
        if self.spec.kind in ("number", "choice"):
            return self.fields["value"].value
        return self.spec.compose(self.values())

    def set(self, **values: Any) -> None:
        """Show ``values`` in the controls (ValueError naming a field or value not offered)."""
        if self.spec.kind == "buttons":
            raise ValueError(f"the {self.spec.label} choices are buttons: click one instead")
        for name, value in values.items():
            if name not in self.fields:
                raise ValueError(f"no control {name!r} here; controls: {sorted(self.fields)}")
            control = self.fields[name]
            if name in self.multiset_values:
                self._set_multiset(name, value)
            elif isinstance(control, list):
                if not isinstance(value, tuple | list) or len(value) != len(control):
                    raise ValueError(f"{name} takes {len(control)} numbers, got {value!r}")
                for number, v in zip(control, value, strict=True):
                    _set_bounded(number, name, v)
            elif isinstance(control, widgets.Dropdown):
                offered = [v for _, v in control.options]
                if value not in offered:
                    raise ValueError(f"{name} offers {offered}, not {value!r}")
                control.value = value
            else:
                _set_bounded(control, name, value)

    def _set_multiset(self, name: str, value: Any) -> None:
        if not isinstance(value, tuple | list):
            raise ValueError(f"{name} takes a tuple of values, got {value!r}")
        wanted = Counter(value)
        offered = Counter(self.multiset_values[name])
        if wanted - offered:
            raise ValueError(
                f"{name} offers {sorted(offered.elements(), reverse=True)}, cannot make {value!r}"
            )
        for v, toggle in zip(self.multiset_values[name], self.fields[name], strict=True):
            on = wanted[v] > 0
            if on:
                wanted[v] -= 1
            toggle.value = on

    def widgets(self) -> list[widgets.Widget]:
        """Every interactive widget of the group."""
        found: list[widgets.Widget] = list(self.buttons.values())
        for control in self.fields.values():
            found.extend(control if isinstance(control, list) else [control])
        return found


def _set_bounded(control: widgets.BoundedIntText, name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} takes a whole number, got {value!r}")
    if not control.min <= value <= control.max:
        raise ValueError(f"{name} takes {control.min}–{control.max}, got {value}")
    control.value = value


class ActionForm(widgets.VBox):
    """Controls for the legal actions of one decision, and a play button.

    ``set(**values)`` and ``select(label)`` drive it like a reader; ``action`` is the legal
    action the controls show (None when they show no legal action, and then the play button
    is disabled and clicking it does nothing).
    """

    def __init__(
        self,
        legal: Sequence[Any],
        *,
        decision: int,
        submit: Submit,
        labeller: Labeller | None = None,
        prompt: str = "Your move",
    ) -> None:
        self.legal = legal
        self.decision = decision
        self.submit = submit
        self.labeller = labeller
        self.closed = False
        self.groups = [_GroupControls(spec, labeller, self._on_change) for spec in analyse(legal)]
        self.active = self.groups[0]
        self.message = widgets.HTML()
        self.play_button = widgets.Button(description="play", button_style="primary")
        self.play_button.add_class("wb-table-play")
        self.play_button.on_click(self._on_play)
        for group in self.groups:
            for action, button in group.buttons.items():
                button.on_click(lambda _button, action=action: self._on_button(action))
        self.selector: widgets.ToggleButtons | None = None
        header = widgets.HTML(f"<b>{escape(prompt)}</b>")
        children: list[widgets.Widget] = [header]
        if len(self.groups) > 1:
            self.selector = widgets.ToggleButtons(
                options=[(g.spec.label, i) for i, g in enumerate(self.groups)], value=0
            )
            self.selector.observe(self._on_select, names="value")
            children.append(self.selector)
        self.body = widgets.VBox([self.active.box])
        children += [self.body, widgets.HBox([self.play_button, self.message])]
        super().__init__(children)
        self.add_class("wb-table-form")
        self._on_change()

    # -- reading and driving ---------------------------------------------------------------

    @property
    def action(self) -> Any:
        """The legal action the controls show now, or None."""
        if self.closed or self.active.spec.kind == "buttons":
            return None
        try:
            return match(self.active.composed(), self.legal)
        except (ValueError, TypeError):
            return None

    def select(self, label: str) -> None:
        """Show the group of actions called ``label`` (when several kinds are offered)."""
        labels = [g.spec.label for g in self.groups]
        if label not in labels:
            raise ValueError(f"no group {label!r}; groups: {labels}")
        if self.selector is not None:
            self.selector.value = labels.index(label)

    def set(self, **values: Any) -> None:
        """Set field controls of the shown group, as a reader would (then click ``play``)."""
        self.active.set(**values)
        self._on_change()

    def button_for(self, action: Any) -> widgets.Button:
        """The button that plays ``action`` (a short list of choices)."""
        for group in self.groups:
            for candidate, button in group.buttons.items():
                if candidate == action:
                    return button
        raise ValueError(f"no button plays {action!r}")

    def close_controls(self) -> None:
        """Disable every control: the decision is taken (a later click does nothing)."""
        self.closed = True
        self.play_button.disabled = True
        if self.selector is not None:
            self.selector.disabled = True
        for group in self.groups:
            for widget in group.widgets():
                widget.disabled = True

    # -- events ----------------------------------------------------------------------------

    def _on_select(self, change: dict[str, Any]) -> None:
        self.active = self.groups[change["new"]]
        self.body.children = [self.active.box]
        self._on_change()

    def _on_change(self, _change: Any = None) -> None:
        if self.closed:
            return
        if self.active.spec.kind == "buttons":
            self.play_button.layout.display = "none"
            self.message.value = ""
            return
        self.play_button.layout.display = None
        action = self.action
        self.play_button.disabled = action is None
        if action is not None:
            group = self.active.spec.label if self.active.spec.type is not None else None
            shown = value_text(action, self.labeller, group)
            self.message.value = f"&nbsp;{escape(shown)}"
        else:
            self.message.value = (
                "&nbsp;<span style='color:#b00'>not a legal choice here: change the controls</span>"
            )

    def _on_play(self, _button: widgets.Button) -> None:
        action = self.action
        if action is None:  # disabled in the page; a programmatic click does nothing either
            return
        self.submit(self.decision, action)

    def _on_button(self, action: Any) -> None:
        if self.closed:
            return
        self.submit(self.decision, action)
