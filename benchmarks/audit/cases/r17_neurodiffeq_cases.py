"""Round 17: neurodiffeq (ODEs and PDEs solved by networks: trial solutions that enforce
initial and boundary conditions, derivatives by autograd, a solver's train and validation epochs
with closures and metrics, solutions evaluated on points)."""
import torch

from . import case


def _solver1d(**kw):
    from neurodiffeq import diff
    from neurodiffeq.conditions import IVP
    from neurodiffeq.generators import Generator1D
    from neurodiffeq.networks import FCNN
    from neurodiffeq.solvers import Solver1D

    return Solver1D(
        ode_system=lambda u, t: [diff(u, t) + u],
        conditions=[IVP(t_0=0.0, u_0=1.0)],
        t_min=0.0, t_max=1.0,
        nets=[FCNN(n_input_units=1, n_output_units=1, hidden_units=(8,))],
        train_generator=Generator1D(8, 0.0, 1.0, method="equally-spaced-noisy"),
        valid_generator=Generator1D(8, 0.0, 1.0, method="equally-spaced"),
        n_batches_valid=1, **kw,
    )


@case("solver1d_train_epoch", grad=True)
def _():
    return _solver1d(metrics={"mean": lambda u, t: u.mean()}).run_train_epoch, (), {}


@case("solver1d_valid_epoch", grad=True)
def _():
    return _solver1d().run_valid_epoch, (), {}


@case("solver2d_train_epoch", grad=True)
def _():
    from neurodiffeq.conditions import DirichletBVP2D
    from neurodiffeq.generators import Generator2D
    from neurodiffeq.networks import FCNN
    from neurodiffeq.operators import laplacian
    from neurodiffeq.solvers import Solver2D

    zero = lambda s: torch.zeros_like(s)
    solver = Solver2D(
        pde_system=lambda u, x, y: [laplacian(u, x, y)],
        conditions=[DirichletBVP2D(x_min=0, x_min_val=zero, x_max=1, x_max_val=zero,
                                   y_min=0, y_min_val=zero, y_max=1, y_max_val=zero)],
        xy_min=(0, 0), xy_max=(1, 1),
        nets=[FCNN(n_input_units=2, n_output_units=1, hidden_units=(8,))],
        train_generator=Generator2D((4, 4), (0, 0), (1, 1), method="equally-spaced-noisy"),
        valid_generator=Generator2D((4, 4), (0, 0), (1, 1), method="equally-spaced"),
        n_batches_valid=1,
    )
    return solver.run_train_epoch, (), {}


@case("solution_call")
def _():
    solver = _solver1d()
    solver.run_train_epoch()
    return solver.get_solution(best=False), (torch.linspace(0, 1, 5),), dict(to_numpy=False)


@case("diff_second_order", grad=True)
def _():
    from neurodiffeq import diff

    t = torch.linspace(0, 1, 6, requires_grad=True).reshape(-1, 1)
    return diff, (torch.sin(t) * t, t), dict(order=2)


@case("ibvp1d_enforce", grad=True)
def _():
    from neurodiffeq.conditions import IBVP1D
    from neurodiffeq.networks import FCNN

    cond = IBVP1D(x_min=0.0, x_max=1.0, t_min=0.0, t_min_val=lambda x: torch.sin(x),
                  x_min_prime=lambda t: torch.zeros_like(t), x_max_val=lambda t: torch.zeros_like(t))
    net = FCNN(n_input_units=2, n_output_units=1, hidden_units=(8,))
    x = torch.rand(6, 1, requires_grad=True)
    return cond.enforce, (net, x, torch.rand(6, 1)), {}
