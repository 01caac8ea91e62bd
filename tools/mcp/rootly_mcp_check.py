"""
Drives the hosted API's own MCP server (PyPI `rootly-mcp-server`) against a running Taproot and
writes a JSON report of every tool call it made (to stdout, or to --report).

    python rootly_mcp_check.py --base-url http://127.0.0.1:3000 --token <key> --seed <file> [--report <file>]

The server runs unchanged as a subprocess over stdio (`python -m rootly_mcp_server`), pointed at
the api by ROOTLY_BASE_URL with the key as ROOTLY_API_TOKEN, its write tools on, offline: its own
bundled swagger (--swagger-path, so it never downloads one), no telemetry (PostHog, Sentry and
AgentCat unset), no On-Call Health key. The check lists the server's tools, then calls them the way
a user of Taproot would: the curated incident, alert and on-call tools, and the tools the server
generates from its swagger (creates, lists, gets, updates). `--seed` names a JSON file of what the
caller seeded in the organization (ids, titles, the schedule and its members); each call names the
strings its answer must contain (the seeded or created records' ids and names) and, for filters,
strings it must not. A call fails when the MCP result is an error, when the tool answers its own
error document (`{"error": true, ...}`: the curated tools report a failed request that way), or
when an expected string is missing (or a string it must not contain is there). The server's
resources (`rootly://incidents`, `incident://{id}`...) are read the same way. Records no tool
creates (a dashboard's panel, a custom field's option...) are created with plain HTTP. Every tool
the server lists must be called or be in EXCUSED, and every excused tool listed and not called.

Exit status: 0 when every call succeeded, 3 when the report lists failures (it is written either
way); anything else is a crash of the check itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta, timezone
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httpx
import rootly_mcp_server
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

EXIT_FAILURES = 3

# Tools the check does not call, with the reason (the test requires every listed tool to be
# called or named here, and every name here to be listed and not called).
EXCUSED: dict[str, str] = {
    "check_oncall_health_risk": "reads its burnout analysis from On-Call Health (api.oncallhealth.ai, ONCALLHEALTH_API_KEY), a third party; the check stays offline",
}

# The server's environment: only what it needs. The stdio client adds HOME, LOGNAME, PATH, SHELL,
# TERM and USER of this process and nothing else, so no telemetry setting of the caller leaks in;
# the telemetry switches are set empty anyway, so a new default cannot turn them on.
SERVER_ENV = {
    "ROOTLY_MCP_ENABLE_WRITE_TOOLS": "true",
    "ROOTLY_TOOL_USAGE_LOGGING": "false",
    "ROOTLY_CODE_MODE_ENABLED": "false",
    "ROOTLY_MCPCAT_PROJECT_ID": "",
    "SENTRY_DSN": "",
    "POSTHOG_PROJECT_TOKEN": "",
    "ONCALLHEALTH_API_KEY": "",
    # FastMCP's banner checks PyPI for a newer FastMCP: neither.
    "FASTMCP_SHOW_SERVER_BANNER": "false",
    "FASTMCP_CHECK_FOR_UPDATES": "off",
}


def iso(at: datetime) -> str:
    return at.isoformat().replace("+00:00", "Z")


def doc(type_: str, **attributes: Any) -> dict[str, Any]:
    """The `data` argument of a generated create or update tool."""
    return {"type": type_, "attributes": attributes}


class Check:
    def __init__(self, session: ClientSession, seed: dict[str, Any], base_url: str, token: str, texts: bool = False):
        self.session = session
        self.texts = texts
        self.seed = seed
        self.calls: list[dict[str, Any]] = []
        self.resources: list[dict[str, Any]] = []
        # What no listed tool creates (an option of a custom field, a panel of a dashboard...) is
        # created with plain HTTP; a failure there is reported as a setup failure.
        self.http = httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {token}", "Content-Type": "application/vnd.api+json"}, timeout=30)
        self.setup: list[dict[str, Any]] = []

    def plain(self, method: str, path: str, body: Any = None) -> Any:
        """A request the server has no tool for; answers the `data` of its answer (None when it failed)."""
        answer = self.http.request(method, path, content=json.dumps(body) if body is not None else None)
        if not 200 <= answer.status_code < 300:
            self.setup.append({"request": f"{method} {path}", "status": answer.status_code, "error": answer.text[:1000]})
            return None
        try:
            return answer.json()["data"]
        except (ValueError, KeyError, TypeError):
            return None

    def plain_create(self, path: str, body: Any) -> str | None:
        """Creates with plain HTTP what no tool creates; answers its id (the first, for a create answering a list)."""
        data = self.plain("POST", path, body)
        return (data[0] if isinstance(data, list) and data else data or {}).get("id")

    async def call(self, tool: str, arguments: dict[str, Any] | None = None, expect: Iterable[Any] = (), absent: Iterable[Any] = ()) -> Any:
        """
        Calls `tool` and records the outcome; answers its parsed answer (None when it failed).
        `expect` are strings the answer must contain, `absent` strings it must not.
        """
        arguments = {k: v for k, v in (arguments or {}).items()}
        record: dict[str, Any] = {"tool": tool, "arguments": arguments, "expected": [str(e) for e in expect], "absent": [str(a) for a in absent]}
        self.calls.append(record)
        missing_inputs = [k for k, v in arguments.items() if v is None]
        if missing_inputs or any(e is None for e in expect):
            record.update(is_error=None, error=f"not run: no {', '.join(missing_inputs) or 'expected value'} (an earlier call failed)")
            return None
        try:
            result = await self.session.call_tool(tool, arguments)
        except Exception as error:  # a protocol error: the server refused the call itself
            record.update(is_error=None, error=f"{type(error).__name__}: {error}")
            return None
        text = "\n".join(item.text for item in result.content if getattr(item, "text", None))
        parsed: Any = result.structuredContent
        if parsed is None or (isinstance(parsed, dict) and set(parsed) == {"result"}):
            try:
                parsed = json.loads(text)
            except ValueError:
                parsed = result.structuredContent
        record["is_error"] = bool(result.isError)
        record["chars"] = len(text)
        if result.isError:
            record["error"] = text[:2000]
        elif isinstance(parsed, dict) and parsed.get("error") is True:
            record["error"] = f"the tool answered its error document: {json.dumps(parsed)[:2000]}"
        missing = [e for e in record["expected"] if e not in text]
        present = [a for a in record["absent"] if a in text]
        if missing:
            record["missing"] = missing
        if present:
            record["present"] = present
        if self.texts:
            record["text"] = text
        elif missing or present:
            record["excerpt"] = text[:1500]
        return None if "error" in record else parsed

    async def read(self, uri: str, expect: Iterable[Any] = ()) -> None:
        """Reads one of the server's resources; the same rules as a call."""
        record: dict[str, Any] = {"uri": uri, "expected": [str(e) for e in expect]}
        self.resources.append(record)
        try:
            result = await self.session.read_resource(uri)  # type: ignore[arg-type]
        except Exception as error:
            record["error"] = f"{type(error).__name__}: {error}"
            return
        text = "\n".join(getattr(c, "text", "") or "" for c in result.contents)
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        # A resource reports a failed request in its answer: `"name": "... (Error)"`, `"text": "Error (...): ..."`.
        if isinstance(parsed, dict) and str(parsed.get("name", "")).endswith("(Error)"):
            record["error"] = f"the resource answered its error: {parsed.get('text')}"
        missing = [e for e in record["expected"] if e not in text]
        if missing:
            record.update(missing=missing, excerpt=text[:1500])


def ident(answer: Any) -> str | None:
    """The id of a generated tool's single-resource answer."""
    if isinstance(answer, dict) and isinstance(answer.get("data"), dict):
        return answer["data"].get("id")
    return None


async def curated(c: Check) -> None:
    """The tools the server writes itself (its tools/*.py): incidents, alerts, on-call, audits."""
    s = c.seed
    now = datetime.now(timezone.utc)
    incident, past = s["incident"], s["past_incident"]

    await c.call("get_server_version", expect=[version("rootly-mcp-server")])
    await c.call("list_endpoints", expect=['"path":"/v1/incidents"', '"path":"/v1/alerts/{id}"'])

    # Incidents.
    await c.call("search_incidents", {"query": "database"}, expect=[incident, s["incident_title"], past], absent=[s["other_incident"]])
    await c.call("search_incidents", {"query": "timeouts", "page_number": 0}, expect=[incident])
    await c.call("list_incidents", {"status": "started"}, expect=[incident, s["incident_title"], f"INC-{s['incident_number']}"], absent=[past])
    await c.call("list_incidents", {"teams": s["team_name"], "service_ids": s["service"], "severity": s["severity_slug"]}, expect=[incident, s["team"]], absent=[past, s["other_incident"]])
    await c.call("list_incidents", {"started_after": iso(now - timedelta(days=1)), "status": "resolved"}, expect=[past], absent=[incident])
    await c.call("collect_incidents", {"query": "database", "max_results": 10, "batch_size": 10}, expect=[incident, past])
    await c.call("get_incident", {"incident_id": f"INC-{s['incident_number']}"}, expect=[incident, s["incident_title"]])
    await c.call("get_incident", {"incident_id": incident}, expect=[incident, s["incident_title"]])
    # The retrospective is found through the incident's relationships.incident_post_mortem (linked on every read).
    await c.call("get_incident_retrospective", {"incident_id": past}, expect=[past, s["past_title"], f'"retrospective":{{"id":"{past}"', f'"url":"/v1/post_mortems/{past}"'])
    # Each post mortem names its incident (attributes.incident_id, which the tool reads).
    await c.call(
        "list_incident_post_mortems",
        {"service_ids": s["service"], "sort": "created_at"},
        expect=[past, s["past_title"], incident, f'"incident_id":"{past}"', f'"incident_id":"{incident}"'],
        absent=[s["other_incident"]],
    )
    await c.call("list_incident_post_mortems", {"status": "draft", "page_size": 1}, expect=['"returned":1'])
    # Every filter it sends upstream: the team (its ids joined by commas), the severity's slug, the
    # service, the status and the creation window. The resolved incident shares only the service.
    window = {"created_after": iso(now - timedelta(days=1)), "created_before": iso(now + timedelta(days=1))}
    await c.call(
        "list_incident_post_mortems",
        {"team_ids": f"{s['team']},{uuid.uuid4()}", "severity": s["severity_slug"], "service_ids": s["service"], "status": "draft", **window},
        expect=[f'"incident_id":"{incident}"', s["incident_title"], '"total_matching":1'],
        absent=[past, s["other_incident"]],
    )
    await c.call("list_incident_post_mortems", {"team_ids": s["team"], "status": "published"}, expect=['"returned":0'], absent=[incident])
    await c.call("list_incident_post_mortems", {"service_ids": s["service"], "created_before": iso(now - timedelta(days=1))}, expect=['"returned":0'], absent=[incident, past])
    await c.call("list_incident_roles", {"incident_id": str(s["incident_number"])}, expect=["Commander", s["responder_email"]])
    await c.call("get_incident_meeting_transcripts", {"incident_id": incident}, expect=[incident, s["recording"]])
    await c.call("find_related_incidents", {"incident_id": incident}, expect=[past, s["past_title"]])
    await c.call("find_related_incidents", {"incident_description": "checkout database timeout errors"}, expect=[incident, past])
    await c.call("suggest_solutions", {"incident_id": incident}, expect=[past, s["past_title"]])
    await c.call("suggest_solutions", {"incident_title": "Checkout database timeouts", "incident_description": "database timeout errors"}, expect=[past])
    made = await c.call(
        "create_incident",
        {
            "title": "Made by the MCP server",
            "summary": "Checkout latency",
            "severity_id": s["severity"],
            "service_ids": s["service"],
            "team_ids": s["team"],
            "environment_ids": s["environment"],
            "incident_type_ids": s["incident_type"],
        },
        expect=["Made by the MCP server", s["service"], s["team"], s["environment"], s["incident_type"]],
    )
    made_id = ident(made)
    await c.call(
        "update_incident",
        {"incident_id": made_id, "summary": "Checkout latency, rolled back", "status": "mitigated", "mitigation_message": "Rolled back the deploy", "functionality_ids": s["functionality"]},
        expect=["Checkout latency, rolled back", "mitigated", s["functionality"]],
    )
    number = (made or {}).get("data", {}).get("attributes", {}).get("sequential_id") if made else None
    await c.call("update_incident", {"incident_id": f"#{number}" if number else None, "severity_id": s["severity"], "status": "resolved", "resolution_message": "Fixed"}, expect=["resolved", s["severity"]])

    # Alerts.
    await c.call("get_alert_by_short_id", {"short_id": s["alert_short_id"]}, expect=[s["alert"], s["alert_summary"]])
    await c.call("get_alert_by_short_id", {"short_id": f"https://rootly.com/account/alerts/{s['alert_short_id']}"}, expect=[s["alert"]])

    # On-call.
    start, end = now - timedelta(days=1), now + timedelta(days=13)
    people = [s["responder"], s["second"]]
    await c.call("list_shifts", {"from_date": iso(start), "to_date": iso(end), "schedule_ids": s["schedule"]}, expect=[*people, s["responder_email"], s["schedule"]])
    await c.call("list_shifts", {"from_date": iso(start), "to_date": iso(end), "user_ids": s["second"], "include_user_details": False}, expect=[s["second"]], absent=[s["responder_email"]])
    await c.call("get_schedule_shifts", {"id": s["schedule"], "start_date": iso(start), "end_date": iso(end)}, expect=people)
    await c.call("get_oncall_shift_metrics", {"start_date": iso(start), "end_date": iso(end), "schedule_ids": s["schedule"]}, expect=[*people, s["responder_name"]])
    await c.call("get_oncall_shift_metrics", {"start_date": start.date().isoformat(), "end_date": end.date().isoformat(), "team_ids": s["team"], "group_by": "team"}, expect=[s["team"], s["team_name"]])
    await c.call("get_oncall_shift_metrics", {"start_date": iso(start), "end_date": iso(end), "user_ids": s["second"], "group_by": "schedule"}, expect=[s["schedule"], s["schedule_name"]])
    await c.call("get_oncall_handoff_summary", {"schedule_ids": s["schedule"]}, expect=[s["schedule_name"], s["on_call_now"], s["team_name"]])
    await c.call("get_oncall_handoff_summary", {"team_ids": s["team"], "timezone": "America/New_York", "include_incidents": True}, expect=[s["schedule_name"], s["on_call_now"]])
    await c.call("get_shift_incidents", {"start_time": iso(now - timedelta(hours=2)), "end_time": iso(now + timedelta(hours=1))}, expect=[s["incident_title"]])
    await c.call("get_oncall_schedule_summary", {"start_date": iso(start), "end_date": iso(end), "schedule_ids": s["schedule"]}, expect=[s["schedule_name"], *people])
    await c.call("check_responder_availability", {"start_date": iso(start), "end_date": iso(end), "user_ids": ",".join(people)}, expect=people)
    await c.call(
        "create_override_recommendation",
        {"schedule_id": s["schedule"], "original_user_id": s["responder"], "start_date": iso(now + timedelta(days=1)), "end_date": iso(now + timedelta(days=2))},
        expect=[s["second"]],
    )

    # Audits.
    await c.call("list_audits", {"item_type": "Incident", "max_results": 50}, expect=[incident])

    # Resources.
    await c.read("rootly://incidents", expect=[incident])
    await c.read(f"incident://{incident}", expect=[s["incident_title"]])
    await c.read(f"team://{s['team']}", expect=[s["team_name"]])
    await c.read("rootly://oncall-status", expect=[s["schedule_name"]])
    await c.read("rootly://workflow-guide", expect=["find_related_incidents"])


async def generated(c: Check) -> None:
    """
    The tools the server generates from its bundled swagger (a JSON:API document in `data`, path
    parameters by name, `filter[x]` as `filter_x`): for each resource a create, then its list, get
    and update, each answer naming what was created or changed; the seeded records are read too.
    """
    s = c.seed
    run = uuid.uuid4().hex[:8]
    now = datetime.now(timezone.utc)
    me = s["me"]

    async def crud(
        type_: str,
        attributes: dict[str, Any],
        changes: dict[str, Any],
        *,
        create: str,
        list_: str | None = None,
        get: str | None = None,
        update: str | None = None,
        parent: dict[str, Any] | None = None,
        list_args: dict[str, Any] | None = None,
        get_args: dict[str, Any] | None = None,
        label: Any = None,
        changed: Any = None,
    ) -> str | None:
        """A create of `attributes`, the list (under `parent`) and the get naming it, an update of `changes`; answers the id."""
        parent = parent or {}
        label = label if label is not None else attributes.get("name")
        changed = changed if changed is not None else next(iter(changes.values()))
        id_ = ident(await c.call(create, {**parent, "data": doc(type_, **attributes)}, expect=[label]))
        if list_:
            await c.call(list_, {**parent, **(list_args or {})}, expect=[id_, label])
        if get:
            await c.call(get, {"id": id_, **(get_args or {})}, expect=[id_, label])
        if update:
            await c.call(update, {"id": id_, "data": doc(type_, **changes)}, expect=[id_, changed])
        return id_

    # The catalog: teams, services, environments, severities, types, functionalities, causes, sub-statuses.
    team = await crud("groups", {"name": f"MCP team {run}", "color": "#047BF8"}, {"description": "Owns the MCP check"}, create="create_team", list_="list_teams", get="get_team", update="update_team", list_args={"page_size": 100})
    await c.call("list_teams", {"filter_name": s["team_name"]}, expect=[s["team"]], absent=[team])
    await c.call("get_team", {"id": s["team"], "include": "users"}, expect=[s["team"], s["team_name"]])
    service = await crud("services", {"name": f"MCP service {run}"}, {"description": "Takes payments"}, create="create_service", list_="list_services", get="get_service", update="update_service")
    await c.call("list_services", {"filter_search": "Checkout"}, expect=[s["service"]], absent=[service])
    await c.call("get_service", {"id": s["service_slug"]}, expect=[s["service"], "Checkout API"])
    await crud("environments", {"name": f"MCP env {run}"}, {"description": "Live"}, create="create_environment", list_="list_environments", get="get_environment", update="update_environment")
    await c.call("list_environments", {"filter_name": "Production"}, expect=[s["environment"]])
    await crud("severities", {"name": f"MCP sev {run}", "severity": "high", "color": "#FF0000"}, {"description": "Customers notice"}, create="create_severity", list_="list_severities", get="get_severity", update="update_severity")
    await c.call("list_severities", {"filter_severity": "critical"}, expect=[s["severity"]])
    await crud("incident_types", {"name": f"MCP type {run}"}, {"description": "An outage"}, create="create_incident_type", list_="list_incident_types", get="get_incident_type", update="update_incident_type")
    await crud("functionalities", {"name": f"MCP functionality {run}"}, {"description": "Pay"}, create="create_functionality", list_="list_functionalities", get="get_functionality", update="update_functionality")
    await crud("causes", {"name": f"MCP cause {run}"}, {"description": "A bad deploy"}, create="create_cause", list_="list_causes", get="get_cause", update="update_cause")
    await crud("sub_statuses", {"name": f"MCP sub-status {run}", "parent_status": "started"}, {"description": "Waiting on a vendor"}, create="create_sub_status", list_="list_sub_statuses", get="get_sub_status", update="update_sub_status")
    # Pulses, the hosted API's deploy and change events: one on the seeded service and environment,
    # labelled and with a ref, and one on neither, which the list's filters leave out.
    pulse = await crud(
        "pulses",
        {
            "summary": f"MCP deploy {run}",
            "source": "k8s",
            "service_ids": [s["service"]],
            "environment_ids": [s["environment"]],
            "labels": [{"key": "version", "value": "2"}],
            "refs": [{"key": "sha", "value": "cd62148cbc5e"}],
        },
        {"summary": f"MCP deploy {run} rolled back"},
        create="create_pulse",
        list_="list_pulses",
        get="get_pulse",
        update="update_pulse",
        label=f"MCP deploy {run}",
    )
    other = ident(await c.call("create_pulse", {"data": doc("pulses", summary=f"MCP config change {run}", source="terraform")}, expect=[f"MCP config change {run}"]))
    await c.call("list_pulses", {"filter_services": s["service"], "filter_labels": "version:2"}, expect=[pulse, "cd62148cbc5e"], absent=[other])
    # Charts of the seeded incident's service, functionality and team.
    await c.call("get_service_incidents_chart", {"id": s["service"], "period": "day"}, expect=['"data"'])
    await c.call("get_service_uptime_chart", {"id": s["service"], "period": "day"}, expect=['"data"'])
    await c.call("get_functionality_incidents_chart", {"id": s["functionality"], "period": "day"}, expect=['"data"'])
    await c.call("get_functionality_uptime_chart", {"id": s["functionality"]}, expect=['"data"'])
    await c.call("get_team_incidents_chart", {"id": s["team"], "period": "month"}, expect=['"data"'])

    # People and their contact methods.
    await c.call("get_current_user", expect=[me, s["owner_email"]])
    await c.call("list_users", {"page_size": 50}, expect=[s["responder_email"], s["second_email"], s["responder_name"]])
    await c.call("list_users", {"filter_email": s["responder_email"]}, expect=[s["responder"]], absent=[s["second_email"]])
    await c.call("get_user", {"id": s["responder"]}, expect=[s["responder_email"], s["responder_name"]])
    email = ident(await c.call("create_user_email_address", {"user_id": me, "data": doc("user_email_addresses", email=f"mcp-{run}@example.test")}, expect=[f"mcp-{run}@example.test"]))
    await c.call("get_user_email_addresses", {"user_id": me}, expect=[email, f"mcp-{run}@example.test"])
    number = f"+1415558{int(run, 16) % 10000:04d}"
    phone = ident(await c.call("create_user_phone_number", {"user_id": me, "data": doc("user_phone_numbers", phone=number)}, expect=[number]))
    await c.call("get_user_phone_numbers", {"user_id": me}, expect=[phone, number])
    rule = ident(
        await c.call(
            "create_user_notification_rule",
            {"user_id": me, "data": doc("user_notification_rules", enabled_contact_types=["email", "sms"], delay=0, user_email_address_id=email, user_sms_number_id=phone)},
            expect=[email],
        )
    )
    await c.call("list_user_notification_rules", {"user_id": me}, expect=[rule])
    await crud("on_call_roles", {"name": f"MCP on-call role {run}"}, {"name": f"MCP on-call role {run} renamed"}, create="create_on_call_role", list_="list_on_call_roles", get="get_on_call_role", update="update_on_call_role")

    # Alerts: urgencies, sources, groups, routes, rules, alerts and their events.
    await crud("alert_urgencies", {"name": f"MCP urgency {run}", "description": "Wake someone"}, {"description": "Wake someone now"}, create="create_alert_urgency", list_="list_alert_urgencies", get="get_alert_urgency", update="update_alert_urgency")
    source = await crud("alert_sources", {"name": f"MCP source {run}", "source_type": "alertmanager"}, {"name": f"MCP source {run} renamed"}, create="create_alerts_source", list_="list_alerts_sources", get="get_alerts_source", update="update_alerts_source")
    by_host = [{"property_field_type": "payload", "property_field_name": "$.host", "property_field_condition_type": "matches_existing_alert"}]
    await crud(
        "alert_groups",
        {"name": f"MCP alert group {run}", "time_window": 10, "conditions": by_host, "targets": [{"target_type": "Group", "target_id": s["team"]}]},
        {"description": "Storms by host"},
        create="create_alert_group",
        list_="list_alert_groups",
        get="get_alert_group",
        update="update_alert_group",
    )
    payments = {"property_field_type": "payload", "property_field_name": "$.team", "property_field_condition_type": "is_one_of", "property_field_values": ["payments"]}
    route = await crud(
        "alert_routes",
        {
            "name": f"MCP route {run}",
            "alerts_source_ids": [source],
            "rules": [{"name": "Payments", "position": 1, "destinations": [{"target_type": "Service", "target_id": s["service"]}], "condition_groups": [{"position": 1, "conditions": [payments]}]}],
        },
        {"name": f"MCP route {run} renamed"},
        create="create_alert_route",
        list_="list_alert_routes",
        get="get_alert_route",
        update="update_alert_route",
    )
    await c.call("patch_alert_route", {"id": route, "data": doc("alert_routes", enabled=False)}, expect=[route, '"enabled":false'])
    await crud(
        "alert_routing_rules",
        {"name": f"MCP routing rule {run}", "alerts_source_id": source, "destination": {"target_type": "Group", "target_id": s["team"]}, "conditions": [payments]},
        {"name": f"MCP routing rule {run} renamed"},
        create="create_alert_routing_rule",
        list_="list_alert_routing_rules",
        get="get_alert_routing_rule",
        update="update_alert_routing_rule",
    )
    fields = "id,summary,status,short_id,source,started_at"
    alert = ident(await c.call("create_alert", {"data": doc("alerts", summary=f"MCP alert {run}", source="api", noise="not_noise", service_ids=[s["service"]])}, expect=[f"MCP alert {run}"]))
    await c.call("list_alerts", {"fields_alerts": fields, "page_size": 50}, expect=[alert, s["alert"], s["alert_summary"], s["alert_short_id"]])
    await c.call("list_alerts", {"fields_alerts": fields, "filter_services": s["service"]}, expect=[alert], absent=[s["alert"]])
    await c.call("get_alert", {"id": s["alert"], "fields_alerts": fields}, expect=[s["alert"], s["alert_summary"]])
    await c.call("update_alert", {"id": alert, "data": doc("alerts", description="Seen by the MCP check")}, expect=[alert, "Seen by the MCP check"])
    event = ident(await c.call("create_alert_event", {"alert_id": alert, "data": doc("alert_events", kind="note", details="Looked at it")}, expect=["Looked at it"]))
    # The server keeps only an alert's essential attributes of what /v1/alerts/... answers (its payload stripping), an event's details among the dropped.
    await c.call("list_alert_events", {"alert_id": alert, "fields_alerts": fields}, expect=[event])
    await c.call("get_alert_event", {"id": event}, expect=[event, "Looked at it"])
    await c.call("update_alert_event", {"id": event, "data": doc("alert_events", details="Looked at it twice")}, expect=[event, "Looked at it twice"])
    await c.call("attach_alert", {"incident_id": s["incident"], "data": doc("alerts", alert_ids=[alert])}, expect=[alert])
    await c.call("list_incident_alerts", {"incident_id": s["incident"], "fields_alerts": fields}, expect=[alert, s["alert"], s["alert_summary"]])
    await crud(
        "heartbeats",
        {"name": f"MCP heartbeat {run}", "alert_summary": "Backups stopped", "interval": 30, "interval_unit": "minutes", "notification_target_id": s["team"], "notification_target_type": "Group"},
        {"description": "Nightly backup"},
        create="create_heartbeat",
        list_="list_heartbeats",
        get="get_heartbeat",
        update="update_heartbeat",
    )
    await crud(
        "live_call_routers",
        {
            "name": f"MCP support line {run}",
            "kind": "voicemail",
            "country_code": "US",
            "phone_type": "local",
            "phone_number": f"+1415557{int(run, 16) % 10000:04d}",
            "voicemail_greeting": "Leave a message",
            "paging_targets": [],
        },
        {"unavailable_responder_message": "Nobody is free"},
        create="create_live_call_router",
        list_="list_live_call_routers",
        get="get_live_call_router",
        update="update_live_call_router",
    )

    # The incident's records: action items, events, form and custom field selections, sub-statuses, recordings.
    incident = s["incident"]
    item = ident(
        await c.call(
            "create_incident_action_item",
            {"incident_id": incident, "data": doc("incident_action_items", summary=f"MCP action {run}", priority="high", assigned_to_user_id=int(s["responder"]))},
            expect=[f"MCP action {run}"],
        )
    )
    await c.call("list_incident_action_items", {"incident_id": incident}, expect=[item, f"MCP action {run}"])
    await c.call("get_incident_action_items", {"id": item}, expect=[item, f"MCP action {run}"])
    await c.call("update_incident_action_item", {"id": item, "data": doc("incident_action_items", status="in_progress")}, expect=[item, "in_progress"])
    await c.call("list_all_incident_action_items", {"filter_status": "in_progress"}, expect=[item])
    event = ident(await c.call("create_incident_event", {"incident_id": incident, "data": doc("incident_events", event=f"MCP rolled back {run}", visibility="internal")}, expect=[f"MCP rolled back {run}"]))
    await c.call("list_incident_events", {"incident_id": incident}, expect=[event, f"MCP rolled back {run}"])
    field = await crud(
        "form_fields",
        {"name": f"MCP field {run}", "kind": "custom", "input_kind": "select", "shown": ["web_new_incident_form"]},
        {"description": "Who felt it"},
        create="create_form_field",
        list_="list_form_fields",
        get="get_form_field",
        update="update_form_field",
        list_args={"page_size": 100},
    )
    watcher = ident(await c.call("create_form_field", {"data": doc("form_fields", name=f"MCP watcher {run}", kind="custom")}, expect=[f"MCP watcher {run}"]))
    option = await crud(
        "form_field_options",
        {"form_field_id": field, "value": "High", "color": "#ff0000"},
        {"value": "Highest"},
        create="create_form_field_option",
        list_="list_form_field_options",
        get="get_form_field_option",
        update="update_form_field_option",
        parent={"form_field_id": field},
        label="High",
    )
    form_set = await crud("form_sets", {"name": f"MCP set {run}", "forms": ["web_new_incident_form"]}, {"name": f"MCP set {run} renamed"}, create="create_form_set", list_="list_form_sets", get="get_form_set", update="update_form_set")
    set_condition = c.plain_create(f"/v1/form_sets/{form_set}/conditions", {"data": doc("form_set_conditions", form_field_id=watcher, comparison="equal", values=["security"])}) if form_set and watcher else None
    await c.call("get_form_set_condition", {"id": set_condition}, expect=[set_condition, "security"])
    await c.call("update_form_set_condition", {"id": set_condition, "data": doc("form_set_conditions", values=["security", "privacy"])}, expect=[set_condition, "privacy"])
    placement = c.plain_create(f"/v1/form_fields/{field}/placements", {"data": doc("form_field_placements", form_set_id=form_set, form="web_new_incident_form")}) if field and form_set else None
    await c.call("get_form_field_placement", {"id": placement}, expect=[placement, form_set])
    await c.call("update_form_field_placement", {"id": placement, "data": doc("form_field_placements", required=True)}, expect=[placement, '"required":true'])
    placement_condition = (
        c.plain_create(f"/v1/form_field_placements/{placement}/conditions", {"data": doc("form_field_placement_conditions", conditioned="required", form_field_id=watcher, comparison="equal", values=["yes"])})
        if placement and watcher
        else None
    )
    await c.call("get_form_field_placement_condition", {"id": placement_condition}, expect=[placement_condition, watcher])
    await c.call("update_form_field_placement_condition", {"id": placement_condition, "data": doc("form_field_placement_conditions", values=["yes", "maybe"])}, expect=[placement_condition, "maybe"])
    await crud("custom_forms", {"name": f"MCP form {run}", "command": f"/mcp-{run}"}, {"command": f"/mcp-{run}-renamed"}, create="create_custom_form", list_="list_custom_forms", get="get_custom_form", update="update_custom_form")
    custom_field = await crud(
        "custom_fields",
        {"label": f"MCP custom field {run}", "kind": "select", "shown": ["incident_form"]},
        {"default": "n/a"},
        create="create_custom_field",
        list_="list_custom_fields",
        get="get_custom_field",
        update="update_custom_field",
        label=f"MCP custom field {run}",
    )
    custom_option = c.plain_create(f"/v1/custom_fields/{custom_field}/options", {"data": doc("custom_field_options", value="EU", color="#123456")}) if custom_field else None
    await c.call("get_custom_field_option", {"id": custom_option}, expect=[custom_option, "EU"])
    await c.call("update_custom_field_option", {"id": custom_option, "data": doc("custom_field_options", value="Europe")}, expect=[custom_option, "Europe"])
    selection = ident(
        await c.call(
            "create_incident_form_field_selection",
            {"incident_id": incident, "data": doc("incident_form_field_selections", incident_id=incident, form_field_id=field, selected_option_ids=[option])},
            expect=[field, option],
        )
    )
    await c.call("list_incident_form_field_selections", {"incident_id": incident}, expect=[selection, field])
    await c.call("get_incident_form_field_selection", {"id": selection}, expect=[selection, field])
    await c.call("update_incident_form_field_selection", {"id": selection, "data": doc("incident_form_field_selections", value="EU customers")}, expect=[selection, "EU customers"])
    custom_selection = ident(
        await c.call(
            "create_incident_custom_field_selection",
            {"incident_id": incident, "data": doc("incident_custom_field_selections", custom_field_id=custom_field, value=None, selected_option_ids=[custom_option])},
            expect=[custom_option],
        )
    )
    await c.call("list_incident_custom_field_selections", {"incident_id": incident}, expect=[custom_selection, custom_option])
    await c.call("get_incident_custom_field_selection", {"id": custom_selection}, expect=[custom_selection])
    await c.call("update_incident_custom_field_selection", {"id": custom_selection, "data": doc("incident_custom_field_selections", value="Europe")}, expect=[custom_selection, "Europe"])
    sub_status = c.plain_create("/v1/sub_statuses", {"data": doc("sub_statuses", name=f"MCP investigating {run}", parent_status="started")})
    assigned = (
        c.plain_create(f"/v1/incidents/{incident}/sub_statuses", {"data": doc("incident_sub_statuses", sub_status_id=sub_status, assigned_at=iso(now - timedelta(minutes=5)))}) if sub_status else None
    )
    await c.call("get_incident_sub_status", {"id": assigned}, expect=[assigned, sub_status])
    await c.call("update_incident_sub_status", {"id": assigned, "data": doc("incident_sub_statuses", assigned_at=iso(now - timedelta(minutes=1)))}, expect=[assigned, sub_status])
    await c.call("list_meeting_recordings", {"incident_id": incident}, expect=[s["recording"], s["recording_summary"]])
    await c.call("list_all_meeting_recordings", {"platform": "zoom"}, expect=[s["recording"]])
    await c.call("get_meeting_recording", {"id": s["recording"], "include": "transcript"}, expect=[s["recording"], s["recording_summary"]])

    # On-call: schedules, rotations and their members, overrides, shadows, coverage, escalation policies.
    schedule = await crud(
        "schedules",
        {"name": f"MCP schedule {run}", "owner_user_id": int(me), "owner_group_ids": [s["team"]]},
        {"description": "Follows the sun"},
        create="create_schedule",
        list_="list_schedules",
        get="get_schedule",
        update="update_schedule",
    )
    await c.call("list_schedules", {"filter_name": s["schedule_name"]}, expect=[s["schedule"]], absent=[schedule])
    rotation = await crud(
        "schedule_rotations",
        {
            "name": f"MCP rotation {run}",
            "schedule_rotationable_type": "ScheduleDailyRotation",
            "schedule_rotationable_attributes": {"handoff_time": "09:00"},
            "time_zone": "Europe/Paris",
        },
        {"schedule_rotationable_type": "ScheduleDailyRotation", "name": f"MCP rotation {run} renamed"},
        create="create_schedule_rotation",
        list_="list_schedule_rotations",
        get="get_schedule_rotation",
        update="update_schedule_rotation",
        parent={"schedule_id": schedule},
        changed=f"MCP rotation {run} renamed",
    )
    member = ident(await c.call("create_schedule_rotation_user", {"schedule_rotation_id": rotation, "data": doc("schedule_rotation_users", user_id=int(s["second"]), position=1)}, expect=[s["second"]]))
    await c.call("list_schedule_rotation_users", {"schedule_rotation_id": rotation}, expect=[member, s["second"]])
    await c.call("list_schedule_rotation_users", {"schedule_rotation_id": s["rotation"]}, expect=[s["responder"], s["second"]])
    day = ident(
        await c.call(
            "create_schedule_rotation_active_day",
            {"schedule_rotation_id": rotation, "data": doc("schedule_rotation_active_days", day_name="M", active_time_attributes=[{"start_time": "09:00", "end_time": "12:00"}])},
            expect=['"M"'],
        )
    )
    await c.call("list_schedule_rotation_active_days", {"schedule_rotation_id": rotation}, expect=[day])
    await c.call("list_schedule_rotations", {"schedule_id": s["schedule"]}, expect=[s["rotation"]])
    starts, ends = now + timedelta(days=1), now + timedelta(days=1, hours=8)
    override = ident(await c.call("create_override_shift", {"schedule_id": s["schedule"], "data": doc("shifts", user_id=int(s["second"]), starts_at=iso(starts), ends_at=iso(ends))}, expect=[s["second"]]))
    await c.call("list_override_shifts", {"schedule_id": s["schedule"]}, expect=[override])
    await c.call("get_override_shift", {"id": override}, expect=[override, s["second"]])
    await c.call("update_override_shift", {"id": override, "data": doc("shifts", user_id=int(s["responder"]))}, expect=[override, s["responder"]])
    shadow = ident(
        await c.call(
            "create_on_call_shadow",
            {"schedule_id": s["schedule"], "data": doc("on_call_shadows", shadowable_type="User", shadowable_id=s["responder"], shadow_user_id=int(s["second"]), starts_at=iso(now + timedelta(days=2)), ends_at=iso(now + timedelta(days=3)))},
            expect=[s["second"]],
        )
    )
    await c.call("list_on_call_shadows", {"schedule_id": s["schedule"]}, expect=[shadow])
    await c.call("get_on_call_shadow", {"id": shadow}, expect=[shadow])
    shadow_ends = iso(now + timedelta(days=4))
    await c.call("update_on_call_shadow", {"id": shadow, "data": doc("on_call_shadows", ends_at=shadow_ends)}, expect=[shadow, shadow_ends[:16]])
    # One request per shift of the member in the window, answered as a list.
    coverage = c.plain_create(
        f"/v1/schedules/{s['schedule']}/shift_coverage_requests", {"data": doc("shift_coverage_requests", starts_at=iso(now + timedelta(days=5)), ends_at=iso(now + timedelta(days=6)), user_id=int(s["responder"]))}
    )
    await c.call("list_shift_coverage_requests", {"schedule_id": s["schedule"]}, expect=[coverage])
    await c.call("get_shift_coverage_request", {"id": coverage}, expect=[coverage])
    policy = await crud(
        "escalation_policies",
        {"name": f"MCP escalation policy {run}", "repeat_count": 1, "group_ids": [s["team"]], "service_ids": [s["service"]]},
        {"repeat_count": 2},
        create="create_escalation_policy",
        list_="list_escalation_policies",
        get="get_escalation_policy",
        update="update_escalation_policy",
        changed='"repeat_count":2',
    )
    path = await crud(
        "escalation_paths",
        {"name": f"MCP escalation path {run}", "match_mode": "match-any-rule", "rules": [{"rule_type": "service", "service_ids": [s["service"]]}]},
        {"name": f"MCP escalation path {run} renamed"},
        create="create_escalation_path",
        list_="list_escalation_paths",
        get="get_escalation_path",
        update="update_escalation_path",
        parent={"escalation_policy_id": policy},
    )
    level = ident(
        await c.call(
            "create_escalation_level",
            {
                "escalation_policy_id": policy,
                "data": doc(
                    "escalation_levels",
                    position=1,
                    delay=5,
                    escalation_policy_path_id=path,
                    notification_target_params=[{"id": s["schedule"], "type": "schedule"}, {"id": s["team"], "type": "team", "team_members": "admins"}],
                ),
            },
            expect=[s["schedule"]],
        )
    )
    await c.call("list_escalation_levels", {"escalation_policy_id": policy}, expect=[level, s["schedule"]])
    await c.call("get_escalation_level", {"id": level}, expect=[level, s["schedule"]])
    await c.call("update_escalation_level", {"id": level, "data": doc("escalation_levels", delay=10)}, expect=[level, '"delay":10'])
    path_level = ident(
        await c.call(
            "create_escalation_level_paths",
            {"escalation_policy_path_id": path, "data": doc("escalation_levels", position=2, delay=1, notification_target_params=[{"id": s["responder"], "type": "user"}])},
            expect=[s["responder"]],
        )
    )
    await c.call("list_escalation_levels_paths", {"escalation_policy_path_id": path}, expect=[path_level, level])

    # Catalogs, dashboards, playbooks, retrospective processes, status pages.
    catalog = await crud("catalogs", {"name": f"MCP catalog {run}", "description": "Data stores"}, {"description": "Where data lives"}, create="create_catalog", list_="list_catalogs", get="get_catalog", update="update_catalog")
    await crud(
        "catalog_entities",
        {"name": f"MCP entity {run}", "description": "Postgres"},
        {"description": "Postgres 16"},
        create="create_catalog_entity",
        list_="list_catalog_entities",
        get="get_catalog_entity",
        update="update_catalog_entity",
        parent={"catalog_id": catalog},
    )
    dashboard = await crud("dashboards", {"name": f"MCP dashboard {run}", "owner": "team"}, {"name": f"MCP dashboard {run} renamed"}, create="create_dashboard", list_="list_dashboards", get="get_dashboard", update="update_dashboard")
    incidents_dataset = {"collection": "incidents", "aggregate": {"operation": "count", "cumulative": False}}
    panel = c.plain_create(f"/v1/dashboards/{dashboard}/panels", {"data": doc("dashboard_panels", name=f"MCP panel {run}", params={"display": "line_chart", "datasets": [incidents_dataset]})}) if dashboard else None
    await c.call("get_dashboard_panel", {"id": panel, "period": "day"}, expect=[panel, f"MCP panel {run}"])
    await c.call("update_dashboard_panel", {"id": panel, "data": doc("dashboard_panels", name=f"MCP panel {run} renamed")}, expect=[panel, f"MCP panel {run} renamed"])
    playbook = await crud(
        "playbooks",
        {"title": f"MCP playbook {run}", "summary": "Fail the database over"},
        {"summary": "Fail over to the replica"},
        create="create_playbook",
        list_="list_playbooks",
        get="get_playbook",
        update="update_playbook",
        label=f"MCP playbook {run}",
    )
    task = c.plain_create(f"/v1/playbooks/{playbook}/playbook_tasks", {"data": doc("playbook_tasks", task=f"MCP page the DBA {run}")}) if playbook else None
    await c.call("get_playbook_task", {"id": task}, expect=[task, f"MCP page the DBA {run}"])
    await c.call("update_playbook_task", {"id": task, "data": doc("playbook_tasks", description="Within 5 minutes")}, expect=[task, "Within 5 minutes"])
    process = await crud(
        "retrospective_processes",
        {"name": f"MCP process {run}", "copy_from": "starter_template", "retrospective_process_matching_criteria": {"group_ids": [team]}},
        {"description": "For every outage"},
        create="create_retrospective_process",
        list_="list_retrospective_processes",
        get="get_retrospective_process",
        update="update_retrospective_process",
    )
    step = c.plain_create(f"/v1/retrospective_processes/{process}/retrospective_steps", {"data": doc("retrospective_steps", title=f"MCP step {run}")}) if process else None
    await c.call("get_retrospective_step", {"id": step}, expect=[step, f"MCP step {run}"])
    await c.call("update_retrospective_step", {"id": step, "data": doc("retrospective_steps", description="Write it down")}, expect=[step, "Write it down"])
    # An incident of the process' team (this run's) gets a copy of its steps (read with Taproot's own list: the reference has none).
    matched = ident(await c.call("create_incident", {"title": f"MCP retrospective {run}", "team_ids": team}, expect=[f"MCP retrospective {run}", team]))
    copies = c.plain("GET", f"/v1/incidents/{matched}/retrospective_steps") if matched and step else None
    copy = next((x["id"] for x in copies or [] if x["attributes"].get("retrospective_step_id") == step), None)
    await c.call("get_incident_retrospective_step", {"id": copy}, expect=[copy, f"MCP step {run}", matched])
    await c.call("update_incident_retrospective_step", {"id": copy, "data": doc("incident_retrospective_steps", status="in_progress")}, expect=[copy, "in_progress"])
    reviewing = c.plain_create("/v1/sub_statuses", {"data": doc("sub_statuses", name=f"MCP reviewing {run}", parent_status="retrospective")})
    group = c.plain_create(f"/v1/retrospective_processes/{process}/groups", {"data": doc("retrospective_process_groups", sub_status_id=reviewing)}) if process and reviewing else None
    await c.call("get_retrospective_process_group", {"id": group}, expect=[group, reviewing])
    await c.call("update_retrospective_process_group", {"id": group, "data": doc("retrospective_process_groups", position=1)}, expect=[group, '"position":1'])
    page = await crud(
        "status_pages",
        {"title": f"MCP status page {run}", "public": True, "service_ids": [s["service"]]},
        {"description": "Checkout and payments"},
        create="create_status_page",
        list_="list_status_pages",
        get="get_status_page",
        update="update_status_page",
        label=f"MCP status page {run}",
    )
    # The reference's template body is the bare template (no JSON:API document), so the tool's arguments are its members.
    stamp = iso(now)
    template = ident(
        await c.call(
            "create_status_page_template",
            {"status_page_id__path": page, "status_page_id": page, "title": f"MCP template {run}", "body": "We are looking into slow checkouts", "update_status": "investigating", "created_at": stamp, "updated_at": stamp},
            expect=[f"MCP template {run}"],
        )
    )
    await c.call("list_status_page_templates", {"status_page_id": page}, expect=[template, f"MCP template {run}"])
    await c.call("get_status_page_template", {"id": template}, expect=[template, f"MCP template {run}"])
    await c.call(
        "update_status_page_template",
        {"id": template, "status_page_id": page, "title": f"MCP template {run}", "body": "Checkouts are slow; we are on it", "created_at": stamp, "updated_at": iso(now)},
        expect=[template, "Checkouts are slow; we are on it"],
    )

    # Workflows: a group, a workflow in it with a task, a form field condition and a run.
    group_id = await crud("workflow_groups", {"name": f"MCP workflow group {run}", "kind": "incident"}, {"name": f"MCP workflow group {run} renamed"}, create="create_workflow_group", list_="list_workflow_groups", get="get_workflow_group", update="update_workflow_group")
    workflow = await crud("workflows", {"name": f"MCP workflow {run}", "workflow_group_id": group_id}, {"description": "Pages the owner"}, create="create_workflow", list_="list_workflows", get="get_workflow", update="update_workflow")
    await crud(
        "workflow_tasks",
        {"name": f"MCP task {run}", "task_params": {"task_type": "send_slack_message", "text": "Incident {{ incident.title }} started"}},
        {"name": f"MCP task {run} renamed"},
        create="create_workflow_task",
        list_="list_workflow_tasks",
        get="get_workflow_task",
        update="update_workflow_task",
        parent={"workflow_id": workflow},
    )
    multi = ident(await c.call("create_form_field", {"data": doc("form_fields", name=f"MCP workflow field {run}", kind="custom", input_kind="multi_select")}, expect=[f"MCP workflow field {run}"]))
    eu = ident(await c.call("create_form_field_option", {"form_field_id": multi, "data": doc("form_field_options", form_field_id=multi, value="EU")}, expect=["EU"]))
    await crud(
        "workflow_form_field_conditions",
        {"incident_condition": "ANY", "form_field_id": multi, "selected_option_ids": [eu]},
        {"selected_option_ids": []},
        create="create_workflow_form_field_condition",
        list_="list_workflow_form_field_conditions",
        get="get_workflow_form_field_condition",
        update="update_workflow_form_field_condition",
        parent={"workflow_id": workflow},
        label=multi,
        changed='"selected_option_ids":[]',
    )
    workflow_run = ident(await c.call("create_workflow_run", {"workflow_id": workflow, "data": doc("workflow_runs", incident_id=incident)}, expect=[incident]))
    await c.call("list_workflow_runs", {"workflow_id": workflow}, expect=[workflow_run])


async def run(base_url: str, token: str, seed: dict[str, Any], texts: bool = False) -> dict[str, Any]:
    swagger = Path(rootly_mcp_server.__file__).parent / "data" / "swagger.json"
    with tempfile.TemporaryDirectory(prefix="rootly-mcp-") as home:
        # A folder of its own: the server looks for swagger.json and fastmcp for .env in its working directory.
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "rootly_mcp_server", "--transport", "stdio", "--swagger-path", str(swagger), "--log-level", "WARNING"],
            env={**SERVER_ENV, "ROOTLY_BASE_URL": base_url, "ROOTLY_API_TOKEN": token, "HOME": home},
            cwd=home,
        )
        async with stdio_client(params, errlog=sys.stderr) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=timedelta(seconds=60)) as session:
                init = await session.initialize()
                listed = sorted(t.name for t in (await session.list_tools()).tools)
                check = Check(session, seed, base_url, token, texts)
                await curated(check)
                await generated(check)
    called = {c["tool"] for c in check.calls}
    return {
        "server": {"name": init.serverInfo.name, "version": version("rootly-mcp-server"), "tools": listed},
        "calls": check.calls,
        "resources": check.resources,
        "setup": check.setup,
        "excused": EXCUSED,
        "not_called": [t for t in listed if t not in called and t not in EXCUSED],
    }


def failures(report: dict[str, Any]) -> list[str]:
    found = [f"{c['tool']}: {c.get('error') or ''} {c.get('missing') or ''} {c.get('present') or ''}".strip() for c in report["calls"] if c.get("error") or c.get("missing") or c.get("present")]
    found += [f"{r['uri']}: {r.get('error') or r.get('missing')}" for r in report["resources"] if r.get("error") or r.get("missing")]
    found += [f"setup {s['request']}: {s['status']} {s['error']}" for s in report["setup"]]
    found += [f"{t}: listed, neither called nor excused" for t in report["not_called"]]
    called = {c["tool"] for c in report["calls"]}
    found += [f"{t}: excused, but called or not listed" for t in report["excused"] if t in called or t not in report["server"]["tools"]]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--seed", required=True, help="a JSON file of the seeded records")
    parser.add_argument("--report", help="the file to write the report to (default stdout)")
    parser.add_argument("--texts", action="store_true", help="keep every answer's text in the report (else a failing one's first 1,500 characters)")
    args = parser.parse_args()
    seed = json.loads(Path(args.seed).read_text(encoding="utf-8"))
    report = asyncio.run(run(args.base_url.rstrip("/"), args.token, seed, args.texts))
    text = json.dumps(report, indent=2) + "\n"
    if args.report:
        Path(args.report).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    failed = failures(report)
    for line in failed:
        print(f"FAILED {line}", file=sys.stderr)
    return EXIT_FAILURES if failed else 0


if __name__ == "__main__":
    sys.exit(main())
