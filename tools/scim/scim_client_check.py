"""
Drives Taproot's SCIM 2.0 server (/scim/v2) with python-scim's client (PyPI `scim2-client`, its
httpx2 engine, and `scim2-models`) and writes a JSON report of every step (to stdout, or to
--report).

    python scim_client_check.py --base-url http://127.0.0.1:3000 --token <SCIM token> [--report <file>]

The client discovers the server first (ServiceProviderConfig, ResourceTypes, Schemas) and builds
its User and Group models from the served schemas; every later request is built from those models
and every answer is validated against them, so a shape the server gets wrong fails the step that
met it. Each step records `ok`, or the error: the client's exception (its class, message and
notes) and, for a SCIM error the server answered, its status, scimType and detail. A step whose
input an earlier step failed to produce is reported as not run.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
import uuid
from collections.abc import Callable
from typing import Any

from httpx2 import Client
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_models import Error, PatchOp, PatchOperation, SCIMException, SearchRequest


class CheckFailed(Exception):
    """An answer the client parsed, but not the one the scenario expects."""


class NotRun(Exception):
    """A step whose input an earlier failed step should have produced."""


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def needs(**inputs: Any) -> None:
    missing = [name for name, value in inputs.items() if value is None]
    if missing:
        raise NotRun(f"no {', '.join(missing)}: an earlier step failed")


def describe(error: BaseException) -> dict[str, Any]:
    """The client's exception as the report shows it; a SCIM error the server sent, as parsed."""
    described: dict[str, Any] = {"error": f"{type(error).__name__}: {error}"}
    notes = getattr(error, "__notes__", None)
    if notes:
        described["notes"] = notes
    if isinstance(error, SCIMException):
        parsed = error.to_error()
        described["scim_error"] = {"status": parsed.status, "scimType": parsed.scim_type, "detail": parsed.detail}
    if not isinstance(error, (CheckFailed, NotRun, SCIMException)):
        frames = traceback.extract_tb(error.__traceback__)[-3:]
        described["trace"] = " <- ".join(f"{f.name} ({f.filename.split('site-packages/')[-1]}:{f.lineno})" for f in reversed(frames))
    return described


class Check:
    def __init__(self, base_url: str, token: str):
        self.http = Client(base_url=f"{base_url}/scim/v2", headers={"Authorization": f"Bearer {token}"}, timeout=30)
        self.scim = SyncSCIMClient(self.http)
        self.steps: list[dict[str, Any]] = []

    def step(self, name: str, action: Callable[[], Any]) -> Any:
        """Runs one step and records it; answers what the step answered (None when it failed)."""
        record: dict[str, Any] = {"step": name}
        self.steps.append(record)
        try:
            result = action()
        except NotRun as reason:
            record.update(ok=False, error=f"not run: {reason}")
            return None
        except Exception as error:  # the client raises whatever its validation meets
            record.update(ok=False, **describe(error))
            return None
        record["ok"] = True
        return result

    def refused(self, name: str, action: Callable[[], Any], status: int, scim_type: str | None = None) -> None:
        """A step that must fail with the server's SCIM error of this status (and scimType), parsed by the client."""

        def run() -> None:
            try:
                action()
            except SCIMException as error:
                parsed: Error = error.to_error()
                expect(
                    int(parsed.status or 0) == status and parsed.scim_type == scim_type,
                    f"expected a SCIM error {status} {scim_type}, the client parsed {parsed.status} {parsed.scim_type}: {parsed.detail}",
                )
                self.steps[-1]["scim_error"] = {"status": parsed.status, "scimType": parsed.scim_type, "detail": parsed.detail}
                return
            raise CheckFailed(f"expected a SCIM error {status}, the request succeeded")

        self.step(name, run)


def scenario(c: Check) -> None:
    scim = c.scim
    run = uuid.uuid4().hex[:8]

    def discover() -> None:
        scim.discover()
        config = scim.provider.config
        expect(config is not None and config.patch.supported and config.filter.supported, f"the config does not support PATCH and filter: {config}")
        served = sorted((t.id, t.endpoint) for t in scim.provider.resource_types)
        expect(served == [("Group", "/Groups"), ("User", "/Users")], f"resource types: {served}")

    c.step("discover: ServiceProviderConfig, ResourceTypes, Schemas", discover)
    User = scim.get_resource_model("User")
    Group = scim.get_resource_model("Group")
    needs(User=User, Group=Group)
    Name = User.get_field_root_type("name")
    Email = User.get_field_root_type("emails")
    Member = Group.get_field_root_type("members")

    email = f"ada.{run}@example.com"
    ada_model = User(
        user_name=email,
        name=Name(given_name="Ada", family_name="Lovelace"),
        emails=[Email(value=email, type="work", primary=True)],
        external_id=f"ada-{run}",
        active=True,
    )

    def create_ada() -> Any:
        created = scim.create(ada_model)
        expect(created.id is not None and created.user_name == email and created.active is True, f"created: {created}")
        expect(created.name.given_name == "Ada" and created.external_id == f"ada-{run}", f"created: {created}")
        expect([e.value for e in created.emails or ()] == [email], f"emails: {created.emails}")
        expect(created.meta.location.endswith(f"/Users/{created.id}"), f"meta.location: {created.meta.location}")
        return created

    ada = c.step("create a User (POST /Users)", create_ada)
    c.refused("create the same userName again: 409 uniqueness", lambda: scim.create(ada_model), 409, "uniqueness")

    def find_by_user_name() -> None:
        needs(user=ada)
        found = scim.query(User, query_parameters=SearchRequest(filter=f'userName eq "{email.upper()}"'))
        expect(found.total_results == 1 and [u.id for u in found.resources or ()] == [ada.id], f"filter answered {found}")

    c.step('query with a filter (userName eq "...")', find_by_user_name)

    def get_ada() -> Any:
        needs(user=ada)
        got = scim.query(User, ada.id)
        expect(got.id == ada.id and got.user_name == email, f"got {got}")
        return got

    got = c.step("get a User (GET /Users/{id})", get_ada)

    def replace_ada() -> None:
        needs(user=got)
        got.name.family_name = "King"
        got.external_id = f"ada-king-{run}"
        replaced = scim.replace(got)
        expect(replaced.name.family_name == "King" and replaced.external_id == f"ada-king-{run}", f"replaced: {replaced}")
        expect(replaced.display_name == "Ada King", f"displayName: {replaced.display_name}")

    c.step("replace a User (PUT)", replace_ada)

    def patch_ada() -> None:
        needs(user=ada)
        operations = [
            PatchOperation(op="replace", path="name.givenName", value="Augusta"),
            PatchOperation(op="add", path="externalId", value=f"augusta-{run}"),
        ]
        patched = scim.modify(User, ada.id, PatchOp[User](operations=operations))
        expect(patched.name.given_name == "Augusta" and patched.name.family_name == "King", f"patched: {patched}")
        expect(patched.external_id == f"augusta-{run}" and patched.active is True, f"patched: {patched}")

    c.step("modify a User (PATCH replace name.givenName, add externalId)", patch_ada)

    bob = c.step("create a second User", lambda: scim.create(User(user_name=f"bob.{run}@example.com", name=Name(given_name="Bob"))))

    def create_team() -> Any:
        needs(ada=ada, bob=bob)
        group = scim.create(Group(display_name=f"Team {run}", external_id=f"team-{run}", members=[Member(value=ada.id)]))
        expect(group.display_name == f"Team {run}" and [m.value for m in group.members or ()] == [ada.id], f"created: {group}")
        member = scim.query(User, ada.id)
        expect([g.value for g in member.groups or ()] == [group.id], f"the member's groups: {member.groups}")
        return group

    team = c.step("create a Group with members (POST /Groups)", create_team)

    def add_and_remove_members() -> None:
        needs(group=team)
        added = scim.modify(Group, team.id, PatchOp[Group](operations=[PatchOperation(op="add", path="members", value=[Member(value=bob.id)])]))
        expect(sorted(m.value for m in added.members or ()) == sorted([ada.id, bob.id]), f"after add: {added.members}")
        removal = PatchOperation(op="remove", path=f'members[value eq "{ada.id}"]')
        removed = scim.modify(Group, team.id, PatchOp[Group](operations=[removal]))
        expect([m.value for m in removed.members or ()] == [bob.id], f"after remove: {removed.members}")

    c.step('modify Group members (PATCH add members, remove members[value eq "..."])', add_and_remove_members)

    def paginate() -> None:
        needs(ada=ada, bob=bob)
        everyone = scim.query(User)
        expect(everyone.total_results == len(everyone.resources or ()), f"one page of all: {everyone.total_results} vs {len(everyone.resources or ())}")
        seen: list[str] = []
        start = 1
        while start <= everyone.total_results:
            page = scim.query(User, query_parameters=SearchRequest(start_index=start, count=2))
            expect(page.start_index == start and page.total_results == everyone.total_results, f"page at {start}: {page}")
            expect(page.items_per_page == len(page.resources or ()) <= 2, f"page at {start}: {page.items_per_page} items")
            seen += [u.id for u in page.resources or ()]
            start += 2
        expect(seen == [u.id for u in everyone.resources], f"pages {seen} vs all {[u.id for u in everyone.resources]}")
        expect({ada.id, bob.id} <= set(seen), f"{ada.id} and {bob.id} listed: {seen}")
        groups = scim.query(Group, query_parameters=SearchRequest(filter=f'displayName eq "Team {run}"', count=1))
        expect([g.id for g in groups.resources or ()] == [team.id], f"groups: {groups}")

    c.step("list with pagination (startIndex, count)", paginate)

    def deactivate_bob() -> None:
        needs(bob=bob)
        patched = scim.modify(User, bob.id, PatchOp[User](operations=[PatchOperation(op="replace", path="active", value=False)]))
        expect(patched.active is False, f"deactivated: {patched}")

    c.step("deactivate a User (PATCH active false: Taproot removes them)", deactivate_bob)
    if bob is not None:
        c.refused("get the deactivated User: 404", lambda: scim.query(User, bob.id), 404)
    if team is not None:
        c.step("delete the Group (DELETE)", lambda: scim.delete(Group, team.id))
        c.refused("get the deleted Group: 404", lambda: scim.query(Group, team.id), 404)
    if ada is not None:
        c.step("delete the User (DELETE)", lambda: scim.delete(User, ada.id))
        c.refused("get the deleted User: 404", lambda: scim.query(User, ada.id), 404)
        c.refused("delete the deleted User again: 404", lambda: scim.delete(User, ada.id), 404)
    c.refused("a filter on an attribute Taproot does not keep: 400 invalidFilter", lambda: scim.query(User, query_parameters=SearchRequest(filter='nickName eq "x"')), 400, "invalidFilter")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--base-url", required=True, help="the api's base URL (the SCIM base is <url>/scim/v2)")
    parser.add_argument("--token", required=True, help="the organization's SCIM token")
    parser.add_argument("--report", type=argparse.FileType("w", encoding="utf-8"), default=sys.stdout, help="the file to write the report to (default stdout)")
    args = parser.parse_args()
    check = Check(args.base_url.rstrip("/"), args.token)
    try:
        scenario(check)
    except NotRun as reason:
        check.steps.append({"step": "build the resource models", "ok": False, "error": f"not run: {reason}"})
    finally:
        check.http.close()
    json.dump({"steps": check.steps}, args.report, indent=2)
    args.report.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
